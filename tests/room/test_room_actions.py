"""The floor's room actions are one table (issue 25): ``op`` -> schema and service
(room.actions.ACTIONS), and the endpoint's adapter -- which protocol_doc documents -- is built
from it, so an action is either in both or in neither."""

from room.actions import ACTIONS, RoomAction


def ops_of_adapter() -> set[str]:
    """Every ``op`` the room endpoint's adapter accepts (read from its JSON schema)."""
    schema = RoomAction.json_schema()
    ops: set[str] = set()
    for variant in schema["$defs"].values():
        op = variant.get("properties", {}).get("op", {})
        ops |= set(op.get("enum", [])) | ({op["const"]} if "const" in op else set())
    return ops


def test_every_op_has_its_schema_and_service():
    assert ops_of_adapter() == set(ACTIONS)
    for op, action in ACTIONS.items():
        assert op in action.schema.model_fields["op"].annotation.__args__, op
        assert callable(action.service)
