"""Pipeline stages. A stage never imports another stage; they meet only through artifacts."""
