"""Audit: the tables' hash chains, the staff log and their exports."""
