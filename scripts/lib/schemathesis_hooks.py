"""Schemathesis hooks for Passwright's API: how to generate bodies of media types it has no
serializer for. A template upload is a zip archive; random bytes (mostly not a zip at all) exercise
the server's refusals, which must be 4xx, never 5xx."""
import schemathesis
from hypothesis import strategies as st

schemathesis.openapi.media_type("application/zip", st.binary(max_size=4096))
