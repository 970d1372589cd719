"""One placement at a time: listing, completing, constructing, drawing and checking
solutions, and their symmetries."""
