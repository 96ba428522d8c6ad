"""Tables: each table's lifecycle (phases, rounds, shoes, circles, banks), what each viewer may see, fairness."""
