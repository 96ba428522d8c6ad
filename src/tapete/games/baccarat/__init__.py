"""The baccarat family: punto y banca, chemin de fer and baccara a dos paños, over one tableau module."""
