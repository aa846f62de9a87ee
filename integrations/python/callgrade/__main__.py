"""python -m callgrade: the callgrade command."""

from callgrade import main

if __name__ == "__main__":
    main()
