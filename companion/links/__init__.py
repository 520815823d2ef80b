"""Links to the reader nodes: the wire codec, the serial and MQTT links, and virtual nodes.

Every link turns what a node sends into :class:`companion.core.observations.Observation` records
and node events (:mod:`companion.links.events`) handed to one callback, a *sink*.
"""
