from spawnkit.cli import main

main()
