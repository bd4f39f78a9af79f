"""The deployment files lint clean: Dockerfile, .dockerignore, deploy/compose.yaml,
deploy/nginx.conf and docs/deploy.md (a public deployment), and nginx's hardening: rate limits on
the websocket and upload endpoints, Streamlit's metrics and agent API closed, the security
headers (a Content-Security-Policy whose script hash matches the installed Streamlit's
page, frame-ancestors with the LMS switch, X-Frame-Options, Referrer-Policy), and, where
nginx is installed, ``nginx -t`` on the config (``tests/e2e/test_deploy_proxy_browser.py``
runs the app through it in Chromium).

Docker is not available where the tests run, so nothing is built here: the files are
parsed, every path they take from the project is checked to exist, every Streamlit flag of
the image's command is checked to be a real option with a value Streamlit accepts, and the
image's command itself starts this checkout's app (its ``/_stcore/health`` answers ``ok``).
"""

from __future__ import annotations

import base64
import hashlib
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.e2e.conftest import AppServer

# Tolerance table: none — every check is exact.

ROOT = Path(__file__).resolve().parents[1]
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"
COMPOSE = ROOT / "deploy" / "compose.yaml"
NGINX = ROOT / "deploy" / "nginx.conf"
DOC = ROOT / "docs" / "deploy.md"
HEALTH = "/_stcore/health"
#: What a public deployment must set, as flag -> allowed values.
PUBLIC_SETTINGS = {
    "server.headless": {"true"},
    "server.enableXsrfProtection": {"true"},
    "browser.gatherUsageStats": {"false"},
    "client.showErrorDetails": {"none", "type"},
}


def instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    out, buf = [], ""
    for raw in text.splitlines():
        line = raw.strip()
        if not buf and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        word, _, rest = buf.partition(" ")
        out.append((word.upper(), rest.strip()))
        buf = ""
    assert not buf, "the Dockerfile ends inside a continued line"
    return out


def exec_form(args: str) -> list[str]:
    """The argument list of an exec-form instruction (``["a", "b"]``), else shell words."""
    args = args.strip()
    if args.startswith("["):
        return yaml.safe_load(args)  # a JSON array is YAML too
    return shlex.split(args)


@pytest.fixture(scope="module")
def docker():
    return instructions(DOCKERFILE.read_text())


def _of(docker, word: str) -> list[str]:
    return [args for w, args in docker if w == word]


def image_command(docker) -> list[str]:
    (cmd,) = _of(docker, "CMD")
    return exec_form(cmd)


def streamlit_flags(cmd: list[str]) -> dict[str, str]:
    flags = {}
    for token in cmd:
        if token.startswith("--"):
            name, eq, value = token[2:].partition("=")
            assert eq, f"write Streamlit flags as --name=value: {token}"
            flags[name] = value
    return flags


def test_instruction_parser_joins_continuations_and_skips_comments():
    text = 'FROM x\n# c\nRUN a \\\n    b\nCMD ["p", "-c", "q"]\n'
    assert instructions(text) == [("FROM", "x"), ("RUN", "a  b"), ("CMD", '["p", "-c", "q"]')]
    assert exec_form('["p", "-c", "q"]') == ["p", "-c", "q"]


def test_the_image_is_slim_python_311_and_runs_as_a_non_root_user(docker):
    (base,) = _of(docker, "FROM")
    assert re.fullmatch(r"python:3\.11-slim(-\w+)?", base), base
    users = _of(docker, "USER")
    assert users and users[-1] not in ("root", "0"), users
    words = [w for w, _ in docker]
    assert words.index("USER") < words.index("CMD")


def test_the_image_installs_debians_chromium_for_the_export(docker):
    """The export (PNG/SVG/PDF/GIF/MP4, ``svmlab render``) drives Chromium through Kaleido:
    the image installs Debian's, as root, without recommends, and tells svmlab where it is."""
    installs = [a for w, a in docker if w == "RUN" and "apt-get install" in a]
    assert len(installs) == 1, installs
    (run,) = installs
    words = run.split()
    assert "chromium" in words and "--no-install-recommends" in words
    assert "apt-get update" in run and "rm -rf /var/lib/apt/lists" in run
    assert docker.index(("RUN", run)) < [w for w, _ in docker].index("USER")
    env = " ".join(a for w, a in docker if w == "ENV")
    assert "SVMLAB_CHROMIUM=/usr/bin/chromium" in env
    assert "playwright install" not in DOCKERFILE.read_text()  # never a browser download


def test_every_copied_path_exists_and_is_not_docker_ignored(docker):
    ignored = [
        ln.strip().rstrip("/")
        for ln in DOCKERIGNORE.read_text().splitlines()
        if ln.strip() and not ln.startswith("#")
    ]
    copies = _of(docker, "COPY")
    assert copies
    for args in copies:
        *sources, _dest = exec_form(args)
        for src in sources:
            assert not src.startswith("--"), f"COPY {args}: no stage copies expected"
            assert (ROOT / src).exists(), f"COPY {src}: not in the project"
            top = src.rstrip("/").split("/")[0]
            assert top not in ignored, f"COPY {src}: excluded by .dockerignore"
    for needed in ("requirements.txt", "app.py", "pages", "svmcore", "svmlab", "assets"):
        assert any(needed in exec_form(a)[:-1] or f"{needed}/" in a for a in copies), needed


def test_every_project_file_a_run_or_cmd_names_exists(docker):
    pattern = re.compile(r"(?<![\w/.])([\w.-]+/)*[\w-]+\.(?:py|txt|toml|sh)\b")
    named = []
    for word in ("RUN", "CMD"):
        for args in _of(docker, word):
            named += [m.group(0) for m in pattern.finditer(args)]
    assert "requirements.txt" in named and "app.py" in named
    for path in named:
        assert (ROOT / path).is_file(), f"{path} is named in the Dockerfile but missing"
    # python -c "from svmlab.ui.static_assets import ensure_plotly_js …" names a real function
    for args in _of(docker, "RUN"):
        for mod, name in re.findall(r"from ([\w.]+) import (\w+)", args):
            assert hasattr(__import__(mod, fromlist=[name]), name), f"{mod}.{name}"


def test_the_healthcheck_asks_streamlit_health_on_the_served_port(docker):
    (check,) = _of(docker, "HEALTHCHECK")
    assert HEALTH in check
    flags = streamlit_flags(image_command(docker))
    port = flags["server.port"]
    assert f"127.0.0.1:{port}{HEALTH}" in check
    assert any(port in e.split() or e == port for e in _of(docker, "EXPOSE"))


def test_the_command_runs_the_app_with_the_public_settings(docker):
    cmd = image_command(docker)
    assert cmd[:4] == ["python", "-m", "streamlit", "run"] and cmd[4] == "app.py"
    flags = streamlit_flags(cmd)
    for name, allowed in PUBLIC_SETTINGS.items():
        assert flags.get(name) in allowed, f"{name} = {flags.get(name)!r}, want {allowed}"
    assert 0 < int(flags["server.maxUploadSize"]) <= 50  # MB; point files are small
    assert 0 < int(flags["server.maxMessageSize"]) <= 200


def test_every_flag_is_a_streamlit_option():
    from streamlit import config

    cmd = image_command(instructions(DOCKERFILE.read_text()))
    options = config._config_options_template  # the registry of every option
    for name in streamlit_flags(cmd):
        assert name in options, f"--{name} is not a Streamlit option"


def test_the_image_command_starts_this_checkout_and_is_healthy():
    """The CMD's flags (port and address replaced) run ``app.py`` and /_stcore/health is ok."""
    cmd = image_command(instructions(DOCKERFILE.read_text()))
    keep = [t for t in cmd[5:] if not t.startswith(("--server.port=", "--server.address="))]
    head = [sys.executable, *cmd[1:5], *keep, "--server.address=127.0.0.1"]
    server = AppServer(ROOT / "app.py", command=head)  # raises unless healthy
    try:
        assert server.proc.poll() is None
    finally:
        server.stop()


def test_compose_has_replicas_behind_the_proxy():
    spec = yaml.safe_load(COMPOSE.read_text())
    app, proxy = spec["services"]["app"], spec["services"]["proxy"]
    assert int(app["deploy"]["replicas"]) >= 2
    context = (COMPOSE.parent / app["build"]["context"]).resolve()
    assert context == ROOT and (context / app["build"].get("dockerfile", "Dockerfile")).is_file()
    assert "ports" not in app, "replicas are reached through the proxy only"
    assert any(HEALTH in str(part) for part in app["healthcheck"]["test"])
    mounts = [v.split(":") for v in proxy["volumes"]]
    assert any(
        (COMPOSE.parent / src).resolve() == NGINX and dst == "/etc/nginx/nginx.conf"
        for src, dst, *_ in mounts
    )
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"
    published = [str(p).split(":")[-1] for p in proxy["ports"]]
    assert any(f"listen {p};" in NGINX.read_text() for p in published)


def _nginx_directives(text: str) -> list[str]:
    body = re.sub(r"#[^\n]*", "", text)
    assert body.count("{") == body.count("}"), "unbalanced braces in nginx.conf"
    return [" ".join(d.split()) for d in re.split(r"[;{}]", body) if d.strip()]


def test_nginx_upgrades_websockets_and_keeps_a_browser_on_one_replica():
    d = _nginx_directives(NGINX.read_text())
    assert "proxy_http_version 1.1" in d
    assert "proxy_set_header Upgrade $http_upgrade" in d
    assert "proxy_set_header Connection $connection_upgrade" in d
    assert "map $http_upgrade $connection_upgrade" in d
    assert "proxy_set_header Host $http_host" in d  # Streamlit checks Origin against Host
    sticky = [x for x in d if x.startswith(("hash ", "ip_hash", "sticky"))]
    assert sticky, "no sticky-session directive in the upstream"
    if sticky[0].startswith("hash "):  # the hashed key is set as a cookie for the browser
        key = sticky[0].split()[1]
        assert any(x.startswith("add_header Set-Cookie") and key in x for x in d)
    timeouts = [int(x.split()[1].rstrip("s")) for x in d if x.startswith("proxy_read_timeout")]
    assert timeouts and min(timeouts) >= 300
    upstream_ports = re.findall(r"server [\w.-]+:(\d+)", " ; ".join(d))
    cmd = image_command(instructions(DOCKERFILE.read_text()))
    assert upstream_ports == [streamlit_flags(cmd)["server.port"]]
    (body,) = [int(x.split()[1].rstrip("m")) for x in d if x.startswith("client_max_body_size")]
    assert body >= int(streamlit_flags(cmd)["server.maxUploadSize"])


def test_the_deploy_doc_gives_both_recipes_and_their_files_exist():
    text = DOC.read_text()
    assert text.lstrip().startswith("## Deploying for a class")
    assert "bash scripts/app.sh" in text and (ROOT / "scripts" / "app.sh").is_file()
    assert "docker compose -f deploy/compose.yaml up" in text
    for path in re.findall(r"`((?:deploy|scripts|benchmarks)/[\w./-]+)`", text):
        assert (ROOT / path).exists(), f"docs/deploy.md names {path}, which is missing"


def test_no_network_fetch_at_run_time():
    """The image's command only starts Streamlit: nothing is downloaded when it runs."""
    cmd = " ".join(image_command(instructions(DOCKERFILE.read_text())))
    assert not re.search(r"\b(pip|curl|wget|apt-get)\b", cmd)


# -- nginx's hardening ----------------------------------------------------------------------
def _locations(text: str) -> dict[str, list[str]]:
    """``location`` pattern -> the directives inside it (no nested blocks in this file)."""
    body = re.sub(r"#[^\n]*", "", text)
    out = {}
    for m in re.finditer(r"location\s+([^{]+?)\s*\{([^{}]*)\}", body):
        out[" ".join(m.group(1).split())] = [
            " ".join(d.split()) for d in m.group(2).split(";") if d.strip()
        ]
    return out


def _header(name: str) -> str:
    """The value of the one ``add_header name …`` (quoted values may hold ``;``)."""
    body = re.sub(r"#[^\n]*", "", NGINX.read_text())
    found = re.findall(rf'add_header {name} (?:"([^"]*)"|(\S+?))( always)?;', body)
    assert len(found) == 1, (name, found)
    quoted, plain, always = found[0]
    assert always, f"{name} must be sent on error responses too"
    return quoted or plain


def test_nginx_limits_the_websocket_and_upload_endpoints_per_browser_and_address():
    text = NGINX.read_text()
    d = _nginx_directives(text)
    zones = {}
    for x in d:
        m = re.match(r"limit_req_zone (\S+) zone=(\w+):\d+m rate=(\d+)r/([sm])", x)
        if m:
            zones[m.group(2)] = (m.group(1), int(m.group(3)) / (60 if m.group(4) == "m" else 1))
    loc = _locations(text)
    for path in ("= /_stcore/stream", "/_stcore/upload_file/"):
        used = [x.split("zone=")[1].split()[0] for x in loc[path] if x.startswith("limit_req ")]
        keys = {zones[z][0] for z in used}
        # per browser (the sticky cookie) and per address (a NATed lecture hall shares one)
        assert keys == {"$svmlab_route", "$binary_remote_addr"}, (path, used)
        assert any(x.startswith("proxy_pass http://svmlab") for x in loc[path])
    assert any(x.startswith("limit_conn svmlab_conn_addr ") for x in loc["= /_stcore/stream"])
    # a lecture hall of 300 behind one address can all open their tab within a minute
    per_addr = [zones[z][1] for z in zones if zones[z][0] == "$binary_remote_addr"]
    assert min(per_addr) * 60 >= 300
    assert "limit_req_status 429" in d and "limit_conn_status 429" in d


def test_nginx_closes_streamlits_metrics_and_agent_api():
    loc = _locations(NGINX.read_text())
    for path in ("= /_stcore/metrics", "/_stcore/agent/"):
        assert loc[path] in (["return 403"], ["return 404"], ["deny all"]), loc[path]


def test_nginx_sends_the_security_headers():
    csp = {p.split()[0]: p.split()[1:] for p in _header("Content-Security-Policy").split("; ")}
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert csp["base-uri"] == ["'self'"] and csp["form-action"] == ["'self'"]
    assert "'unsafe-inline'" not in csp["script-src"] and "'unsafe-eval'" not in csp["script-src"]
    for directive, sources in csp.items():
        assert not [s for s in sources if s.startswith(("http:", "https:", "*"))], directive
    # the frame-ancestors switch for an LMS embed: a variable set in one map, 'self' by default
    (var,) = csp["frame-ancestors"]
    assert var.startswith("$")
    pattern = r"map \$host " + re.escape(var) + r" \{\s*default \"'self'\";"
    assert re.search(pattern, NGINX.read_text())
    assert _header("X-Frame-Options") == "SAMEORIGIN"
    assert _header("Referrer-Policy") in ("same-origin", "no-referrer", "strict-origin")
    assert _header("X-Content-Type-Options") == "nosniff"
    # no location adds its own header (nginx would drop these there)
    assert not [
        p
        for p, ds in _locations(NGINX.read_text()).items()
        if any(x.startswith(("add_header", "proxy_set_header")) for x in ds)
    ]


def test_the_csp_allows_exactly_the_inline_scripts_of_the_installed_streamlit():
    """index.html's inline scripts, hashed as a browser does: a Streamlit upgrade that
    changes them fails here (update the hash in deploy/nginx.conf)."""
    import streamlit

    page = (Path(streamlit.__file__).parent / "static" / "index.html").read_text()
    inline = re.findall(r"<script>(.*?)</script>", page, re.S)
    want = {
        "'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in inline
    }
    script_src = _header("Content-Security-Policy").split("script-src ")[1].split(";")[0]
    have = {s for s in script_src.split() if s.startswith("'sha256-")}
    assert have == want


def test_the_deploy_doc_explains_the_hardening():
    text = DOC.read_text()
    for needed in ("Content-Security-Policy", "frame-ancestors", "Referrer-Policy", "429"):
        assert needed in text, needed
    assert "/_stcore/metrics" in text and "$svmlab_frame_ancestors" in text
    assert "SameSite" in text  # an LMS frame is another site: the sticky cookie must follow


def local_nginx_conf(upstream_port: int, listen_port: int, workdir: Path) -> Path:
    """deploy/nginx.conf for one local replica: upstream, port and paths put in ``workdir``."""
    text = NGINX.read_text()
    text = text.replace("server app:8501", f"server 127.0.0.1:{upstream_port}")
    text = text.replace("listen 8080;", f"listen 127.0.0.1:{listen_port};")
    text = text.replace(
        "worker_processes auto;",
        f"worker_processes 1;\npid {workdir}/nginx.pid;\nerror_log {workdir}/error.log;",
    )
    temp = "".join(
        f"    {kind}_temp_path {workdir}/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    text = text.replace("http {", f"http {{\n    access_log {workdir}/access.log;\n{temp}", 1)
    path = workdir / "nginx.conf"
    path.write_text(text)
    return path


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed")
def test_nginx_accepts_the_config(tmp_path):
    conf = local_nginx_conf(8501, 8080, tmp_path)
    done = subprocess.run(
        ["nginx", "-t", "-c", str(conf), "-p", str(tmp_path)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
