"""Delivery of turn reports: a forum reply through NodeBB's write API, and mail over SMTP."""
