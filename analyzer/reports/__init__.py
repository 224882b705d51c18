"""Reports: the document model (:mod:`.document`), figures (:mod:`.figures`) and the strategy
report's sections (:mod:`.strategy`)."""
