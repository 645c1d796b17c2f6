"""The site: rendering the verified catalogue with Jinja, the case pages and boards, the page
policy, the engine archive, and the MkDocs plugin that calls them."""
