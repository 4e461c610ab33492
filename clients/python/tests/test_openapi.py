"""The client against the scheduler's own OpenAPI document (``GET /api/v1/openapi.json``): every
request it makes is a documented operation with documented query parameters, and every field its
models read is a property of the record the document says that operation answers."""

from __future__ import annotations

import inspect
import re

import pytest
import requests

from grove_client import Grove, models
from conftest import await_condition


@pytest.fixture(scope="module")
def document(grove_url):
    answer = requests.get(grove_url + "/api/v1/openapi.json", timeout=10)
    assert answer.status_code == 200, answer.text
    return answer.json()


def operation_of(document, method, path):
    """The documented operation a request (method and concrete path) is, or None."""
    for template, operations in document["paths"].items():
        pattern = "^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path) and method.lower() in operations:
            return template, operations[method.lower()]
    return None


def test_every_request_the_client_makes_is_a_documented_operation(grove_url, document, monkeypatch):
    made = []
    grove = Grove(grove_url, user="alice")
    real = grove._call

    def recording(method, path, **kwargs):
        made.append((method, path, dict(kwargs.get("params") or {})))
        return real(method, path, **kwargs)

    monkeypatch.setattr(grove, "_call", recording)
    op = grove.submit(command="echo checked", pool="etl", cpu=0.25)
    grove.wait(op.id, timeout=120, interval=0.2)
    grove.get(op.id)
    grove.list(state="completed", user="alice", limit=5)
    grove.explain(op.id)
    job = grove.jobs(op.id)[0]
    grove.logs(op.id, job.id)
    grove.pools()
    grove.usage(by="pool", since="1d", per="day")
    grove.abort(grove.submit(command="sleep 60", pool="etl", cpu=0.25).id)

    assert len({(m, p.split("?")[0]) for m, p, _ in made}) >= 10, made
    for method, path, params in made:
        found = operation_of(document, method, path)
        assert found is not None, "%s %s is not in the OpenAPI document" % (method, path)
        template, operation = found
        documented = {p["name"]: p for p in operation.get("parameters", []) if p["in"] == "query"}
        for name, value in params.items():
            if value is None:
                continue
            assert name in documented, "%s %s: query parameter %s is not documented" % (method, template, name)
            allowed = documented[name]["schema"].get("enum")
            assert allowed is None or str(value) in allowed, "%s=%s is not one of %s" % (name, value, allowed)


# what each model reads, and the record the operation it comes from answers
MODELS = {
    models.Operation: "OperationSummary",
    models.Job: "JobView",
    models.JobLog: "JobLog",
    models.Pool: "PoolView",
    models.Explanation: "Explanation",
}


@pytest.mark.parametrize("model", list(MODELS), ids=lambda m: m.__name__)
def test_every_field_a_model_reads_is_in_its_schema(document, model):
    schemas = document["components"]["schemas"]
    properties = schemas[MODELS[model]]["properties"]
    read = set(re.findall(r"""data(?:\.get\(|\[)["']([a-z_]+)["']""", inspect.getsource(model.of)))
    assert read, "the test reads no field of %s: its pattern is stale" % model.__name__
    # Explanation.of falls back to "id" for operation_id: only one of the two need be there
    missing = sorted(name for name in read - {"id"} if name not in properties) if model is models.Explanation \
        else sorted(name for name in read if name not in properties)
    assert not missing, "%s reads %s, which %s does not have" % (model.__name__, missing, MODELS[model])


def test_times_the_models_read_are_date_times_in_the_document(document):
    schemas = document["components"]["schemas"]
    for record, field in [("OperationSummary", "submitted_at"), ("OperationSummary", "finished_at"),
                          ("JobView", "started_at"), ("JobView", "finished_at")]:
        assert schemas[record]["properties"][field].get("format") == "date-time", (record, field)
