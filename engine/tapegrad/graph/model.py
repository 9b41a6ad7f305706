"""The tape as a graph (``dag.Dag``; ``build_graph`` gives a networkx one), built from the flat
records every consumer reads.

Nodes (``kind``):
  ``variable`` a tf.Variable (its reads inside a tape are folded into it);
  ``watched``  a tensor a tape watched that no recorded op produced;
  ``constant`` an input that no tape follows (a Python number, an unwatched tensor);
  ``op``       one recorded operation;
  ``tensor``   the output of an op.
Edges run input -> op -> output, so the graph reads in the direction of the forward pass.
"""
from ..backprop import READ
from ..variables import Variable
from .dag import Dag, to_networkx
from .summary import value_summary


def _where(where):
    if not where:
        return {}
    return {"file": where[0], "line": where[1], "function": where[2] if len(where) > 2 else None}


class GraphBuilder:
    """Folds the records of several tapes into one graph; each node lists the tapes that saw it."""

    def __init__(self):
        self.g = Dag()
        self.alias = {}        # id of a variable read -> the variable's node
        self.order = 0

    def _add(self, nid, **attrs):
        g = self.g
        if nid in g:
            tapes = g.nodes[nid].get("tapes", [])
            for t in attrs.get("tapes", []):
                if t not in tapes:
                    tapes.append(t)
            return nid
        attrs["order"] = self.order
        self.order += 1
        g.add_node(nid, **attrs)
        return nid

    def node_for(self, x, tape_index, watched):
        """The node of an input tensor or variable (creating a source node when needed)."""
        if isinstance(x, Variable):
            return self._add(f"v{x._id}", kind="variable", label=x.name.rsplit(":", 1)[0],
                             name=x.name, trainable=x.trainable, watched=True,
                             value=value_summary(x), tapes=[tape_index], **_where(x._where))
        alias = self.alias.get(x._id)
        if alias is not None:
            return alias
        nid = f"t{x._id}"
        if nid in self.g:
            return self._add(nid, tapes=[tape_index])
        kind = "watched" if x._id in watched else "constant"
        return self._add(nid, kind=kind, label=_const_label(x) if kind == "constant" else "tensor",
                         value=value_summary(x), watched=kind == "watched", tapes=[tape_index],
                         **_where(watched.get(x._id) if isinstance(watched, dict) else None))

    def add_records(self, records, tape_index, watched_at):
        """Adds one tape's records; returns the forward stream (op node ids in record order)."""
        stream = []
        for i, rec in enumerate(records):
            if rec.op is READ:
                var = rec.inputs[0]
                self.alias[rec.output._id] = self.node_for(var, tape_index, watched_at)
                continue
            op_id = f"o{rec.output._id}"
            out_id = f"t{rec.output._id}"
            new = op_id not in self.g
            self._add(op_id, kind="op", label=rec.op.name, op=rec.op.name,
                      attrs=_attrs_text(rec.attrs), scope=list(rec.scope or ()),
                      tapes=[tape_index], **_where(rec.where))
            self._add(out_id, kind="tensor", label="", value=value_summary(rec.output),
                      watched=True, tapes=[tape_index], **_where(rec.where))
            if new:
                for k, x in enumerate(rec.inputs):
                    src = self.node_for(x, tape_index, watched_at)
                    self.g.add_edge(src, op_id, index=k)
                self.g.add_edge(op_id, out_id, index=0)
            stream.append({"step": len(stream), "op": op_id, "output": out_id, "record": i,
                           "line": rec.where[1] if rec.where else None})
        return stream

    def node_of_id(self, tid):
        if tid in self.alias:
            return self.alias[tid]
        for prefix in ("t", "v"):
            if f"{prefix}{tid}" in self.g:
                return f"{prefix}{tid}"
        return None


def _const_label(x):
    v = x._value
    if v.size == 1 and v.ndim <= 1:
        return f"{v.reshape(()).item():g}" if v.dtype.kind == "f" else str(v.reshape(()).item())
    return "const " + "x".join(map(str, v.shape))


def _attrs_text(attrs):
    if not attrs:
        return {}
    out = {}
    for k, v in attrs.items():
        out[k] = v if isinstance(v, (int, float, bool, str, type(None))) else str(v)
    return out


def watched_lines(view):
    """{id: line of its tape.watch() call, or None} for every id the tape watches; ``view`` is
    the tape's provenance."""
    at = view.watched_at
    return {k: at.get(k) for k in view.tape.watched_ids}


def build_graph(tapes):
    """A ``networkx.DiGraph`` of the given tapes' records (see ``GraphBuilder``)."""
    b = GraphBuilder()
    for i, tape in enumerate(tapes):
        view = tape.observer   # its provenance
        b.add_records(view.records, i, watched_lines(view))
    return to_networkx(b.g)
