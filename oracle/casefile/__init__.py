"""Reading case files: the YAML source, the loader, the typed model, the words of the format,
the writer and the editors' schema. The lowest stage: it knows the engine and nothing above."""
