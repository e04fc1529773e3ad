"""Natural language: domain templates (templates/<domain>.yaml) and the texts built from them."""
