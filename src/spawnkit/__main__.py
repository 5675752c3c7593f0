from spawnkit.main import main

main()
