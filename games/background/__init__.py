"""The service's background work, done by ``manage.py worker`` instances, never by the web
processes: closing the days and preparing the dailies, and filling the winnable-deal pools.
"""
