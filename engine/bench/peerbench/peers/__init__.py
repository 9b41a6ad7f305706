"""One module per peer; each writes the cases of peerbench.cases in its library's own idiom."""
