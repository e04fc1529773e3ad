"""Natural language: domain templates (acpgen/data/templates/<domain>.yaml) and the texts built from them."""
