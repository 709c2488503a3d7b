"""docs/protocol.md's message reference is generated from the schemas and must be up to date."""

from django.core.management import call_command

from pokerfloor.protocol import BEGIN, DOC, endpoints


def test_protocol_doc_matches_the_schemas():
    call_command("protocol_doc", "--check")


def test_every_socket_and_endpoint_is_documented():
    text = DOC.read_text(encoding="utf-8").split(BEGIN, 1)[1]
    for title, _tag, _adapter in endpoints():
        assert f"### {title}" in text
    for path in ("/ws/lobby/", "/ws/room/", "/ws/tournaments/", "/ws/floor/", "/ws/tables/"):
        assert path in text
