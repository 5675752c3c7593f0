"""Static protocol and spec checks for skills, commands and agents."""
