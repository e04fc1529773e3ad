from acpgen.cli import main

main()
