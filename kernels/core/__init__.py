"""Game-independent kernels: the card layout, random streams, dealing, trick rules and the
double-dummy solver."""
