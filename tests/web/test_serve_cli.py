"""`gin serve` refuses bad options before it opens anything: exit 2 and one line on stderr."""

from __future__ import annotations

import pytest

from ginrummy.cli.main import main


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--bot-delay", "-1"], "--bot-delay -1.0: the delay is 0 seconds or more"),
        (["--bot-delay", "nan"], "--bot-delay nan: the delay is 0 seconds or more"),
        (["--log-level", "loud"], "--log-level 'loud' is not allowed; allowed: critical, error, warning, info, debug"),
        # a database kind the store does not speak is named, the password masked
        (
            ["--database-url", "mysql://u:hunter2@localhost/db"],
            "--database-url mysql://u:***@localhost/db: mysql is not supported; "
            "use sqlite:///FILE (the default) or postgresql://USER:PASSWORD@HOST/DB",
        ),
    ],
)
def test_bad_options_exit_2_with_one_line(capsys, argv, needle):
    status = main(["serve", *argv])
    out = capsys.readouterr()
    assert status == 2
    assert out.out == ""
    assert out.err == f"gin: error: {needle}\n"


def test_a_port_in_use_is_one_line_and_exit_2(capsys, tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        status = main(["serve", "--port", str(port), "--database-url", f"sqlite:///{tmp_path / 'g.db'}"])
    out = capsys.readouterr()
    assert status == 2
    assert out.out == ""
    assert out.err.startswith(f"gin: error: cannot listen on 127.0.0.1:{port}: ")
    assert out.err.endswith("; choose another --port or --host\n")
    assert out.err.count("\n") == 1


def test_listen_on_port_0_gets_a_real_port():
    from ginrummy.cli.server.serve import listen

    sock = listen("127.0.0.1", 0)
    try:
        host, port = sock.getsockname()[:2]
        assert host == "127.0.0.1"
        assert 0 < port < 65536
    finally:
        sock.close()
