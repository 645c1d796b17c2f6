"""The misreadings of the rules: how each answers the catalogue's questions, and the matrix of
cases against them."""
