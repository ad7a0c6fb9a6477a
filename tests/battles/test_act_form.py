"""`battles.forms.shared_fields`: the board action's form (`ActForm`, every click) shares its
field objects between instances instead of deep-copying them for each (issue 13), and still
checks each post on its own; a subclass copies its fields again."""

from django import forms

from battles.forms import ActForm

GOOD = {"seq": "3", "actor": "a1", "kind": "end_turn", "params": '{"to": "near"}'}


def test_the_instances_share_the_field_objects_not_the_field_dict():
    one, two = ActForm(GOOD), ActForm({})
    assert one.fields is not two.fields
    assert all(one.fields[name] is two.fields[name] for name in ActForm.base_fields)


def test_each_post_is_checked_on_its_own():
    bad = ActForm({"seq": "-1", "actor": "", "kind": "x" * 41, "typed_die": "21"})
    good = ActForm(GOOD)
    assert not bad.is_valid()
    assert set(bad.errors) == {"seq", "actor", "kind", "typed_die"}
    assert good.is_valid(), good.errors
    assert good.command() == {"actor": "a1", "kind": "end_turn", "params": {"to": "near"},
                              "typed_dice": None}  # fmt: skip
    assert not ActForm({"seq": "1", "actor": "a", "kind": "k", "typed_die": "0"}).is_valid()
    assert ActForm({**GOOD, "typed_die": "20"}).is_valid()


def test_a_subclass_copies_its_fields_again():
    class WithNote(ActForm):
        note = forms.CharField(required=False)

    one, two = WithNote(GOOD), WithNote(GOOD)
    assert one.fields["seq"] is not two.fields["seq"]
    assert one.fields["seq"] is not ActForm(GOOD).fields["seq"]
    assert one.is_valid() and two.is_valid()
