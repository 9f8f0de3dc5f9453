"""Kubernetes manifests against the API's own types (python3-kubernetes): no
unknown field (a typo Kubernetes would drop in silence), every value of its
type, every required field there. Shared by check_packaging.py and
check_k8s.py."""
import kubernetes.client as k8s

MODELS = {"Service": "V1Service", "StatefulSet": "V1StatefulSet", "PodDisruptionBudget": "V1PodDisruptionBudget",
          "Job": "V1Job", "PersistentVolumeClaim": "V1PersistentVolumeClaim", "ConfigMap": "V1ConfigMap",
          "NetworkPolicy": "V1NetworkPolicy", "Namespace": "V1Namespace", "Secret": "V1Secret"}


def typed(value, kind, where):
    if kind.startswith("list["):
        if not isinstance(value, list):
            return [f"{where}: a list expected"]
        return [e for i, v in enumerate(value) for e in typed(v, kind[5:-1], f"{where}[{i}]")]
    if kind.startswith("dict("):
        if not isinstance(value, dict):
            return [f"{where}: a map expected"]
        inner = kind[5:-1].split(", ", 1)[1]
        return [e for key, v in value.items() for e in typed(v, inner, f"{where}.{key}")]
    if kind in ("str", "int", "bool", "float"):
        ok = isinstance(value, {"str": str, "int": int, "bool": bool, "float": (int, float)}[kind])
        ok = ok and not (kind == "int" and isinstance(value, bool))
        return [] if ok else [f"{where}: {kind} expected, got {value!r}"]
    if kind == "object":
        return []
    model = getattr(k8s, kind)
    if not isinstance(value, dict):
        return [f"{where}: an object ({kind}) expected"]
    by_json = {j: a for a, j in model.attribute_map.items()}
    errors = [f"{where}.{key}: no such field in {kind}" for key in value if key not in by_json]
    for key, v in value.items():
        if key in by_json:
            errors += typed(v, model.openapi_types[by_json[key]], f"{where}.{key}")
    return errors


def check_documents(docs):
    """The errors of each document against its kind's model."""
    errors = []
    for d in docs:
        kind = MODELS.get(d.get("kind"))
        if kind is None:
            errors.append(f"a {d.get('kind')} has no model to check it against")
            continue
        errors += typed(d, kind, d["kind"] + " " + d.get("metadata", {}).get("name", "?"))
        try:  # the constructors refuse a required field left out
            k8s.ApiClient()._ApiClient__deserialize(d, kind)
        except ValueError as e:
            errors.append(f"{d['kind']}: {e}")
    return errors
