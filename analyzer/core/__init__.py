"""Game-independent parts of the API: cards and notation, seats, strains, errors, formatting,
threads and seeds, statistics, jobs (checkpoints, Dask) and the double-dummy solver."""
