"""Stage `toolgraph`: READ tools derived from the ontology, WRITE tools from actions, and their edges."""
