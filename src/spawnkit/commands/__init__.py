"""One thin module per CLI verb: take parsed options, call the capability, print, return an exit code."""
