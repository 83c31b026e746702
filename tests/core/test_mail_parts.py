"""Which parts of a mail are taken as an order workbook (std email messages, no server needed)."""

from __future__ import annotations

from email.message import EmailMessage

from adjudicator.mail.fetch import safe_name, workbook_parts

XLSX = ("application", "vnd.openxmlformats-officedocument.spreadsheetml.sheet")


def mail(*attachments: tuple[str, bytes]) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "a@example.test"
    message.set_content("orders\n")
    for name, data in attachments:
        message.add_attachment(data, maintype=XLSX[0], subtype=XLSX[1], filename=name)
    return message


def codes(message: EmailMessage) -> tuple[list[str], list[str]]:
    parts, problems = workbook_parts(message)
    return [p.get_filename() for p in parts], [p.code for p in problems]


def test_one_workbook_is_taken() -> None:
    assert codes(mail(("ALPHA.xlsx", b"PK"))) == (["ALPHA.xlsx"], [])


def test_none_several_and_other_types() -> None:
    assert codes(mail()) == ([], ["L04"])
    assert codes(mail(("A.xlsx", b"1"), ("B.ods", b"2"))) == ([], ["L07"])
    signed = mail(("orders.pdf", b"%PDF"))
    assert codes(signed) == (["orders.pdf"], [])  # checked, so that the player reads F03 in the receipt


def test_a_forwarded_message_is_not_opened() -> None:
    outer = mail()
    outer.add_attachment(mail(("ALPHA.xlsx", b"PK")))  # message/rfc822
    assert codes(outer) == ([], ["L06"])


def test_attachment_names_cannot_leave_the_folder() -> None:
    assert safe_name("../../etc/passwd.xlsx") == "passwd.xlsx"
    assert safe_name("..\\..\\boot.ini") == "boot.ini"
    assert safe_name("") == "workbook.xlsx"
    assert safe_name("заказ <1>.xlsx") == "заказ _1_.xlsx"
