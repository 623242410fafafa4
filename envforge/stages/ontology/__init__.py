"""Stage `ontology`: the resolved, person-centric entity graph."""
