"""`envforge lint`: a blueprint's static checks and a dry run of the stages that decide which actions tasks reach."""
