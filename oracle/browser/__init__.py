"""What the site's engine pages run in the reader's browser: JSON in, JSON out."""
