"""Containers as tree nodes: jax (jit, grad, key paths), torch (func.grad, compile), optree,
tf.nest / tf.function, dm-tree; lazy registration without importing frameworks."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import ivy_like
from ivy_like import Container

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _params(backend_name, order=("w", "b")):
    b = ivy_like.get_backend(backend_name)
    values = {
        "w": b.asarray(np.array([1.0, 2.0], np.float32)),
        "b": b.asarray(np.array([3.0], np.float32)),
    }
    return Container(layer={k: values[k] for k in order}, scale=b.asarray(np.float32(2.0)))


def test_flatten_order_is_sorted_and_equal_trees_match():
    jax = pytest.importorskip("jax")
    ivy_like.get_backend("jax")
    a = _params("jax", ("w", "b"))
    b = _params("jax", ("b", "w"))
    assert jax.tree_util.tree_structure(a) == jax.tree_util.tree_structure(b)
    paths = [jax.tree_util.keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(a)[0]]
    assert paths == ["['layer']['b']", "['layer']['w']", "['scale']"]
    rebuilt = jax.tree_util.tree_map(lambda x: x * 2, a)
    assert type(rebuilt) is Container and type(rebuilt.layer) is Container


def test_jax_leaves_follow_sorted_keys_whatever_the_insertion_order():
    # The jax registration caches each key order's sorted order and a getter of its values
    # (container/_pytree.py): the values must still follow the keys, for every order, also
    # once the cache has been emptied at its limit.
    jax = pytest.importorskip("jax")
    from ivy_like.container import _pytree

    ivy_like.get_backend("jax")
    b = ivy_like.get_backend("jax")
    names = ["d", "a", "c", "b"]
    for shift in range(len(names)):
        order = names[shift:] + names[:shift]
        c = Container({k: b.asarray(np.float32(ord(k))) for k in order})
        c["nested"] = Container({k: b.asarray(np.float32(-ord(k))) for k in reversed(order)})
        leaves = [float(v) for v in jax.tree_util.tree_leaves(c)]
        assert leaves == [97.0, 98.0, 99.0, 100.0, -97.0, -98.0, -99.0, -100.0]
        out = jax.jit(lambda t: t)(c)
        assert type(out) is Container and type(out["nested"]) is Container
        for k in order:
            assert float(out[k]) == ord(k) and float(out["nested"][k]) == -ord(k)
        _pytree._orders.clear()  # the cache emptied, as at its limit
    empty = jax.jit(lambda t: t)(Container())
    assert type(empty) is Container and not empty


def test_jax_jit_grad_returns_a_container_and_traces_once():
    jax = pytest.importorskip("jax")
    ivy_like.get_backend("jax")
    traces = []

    def loss(p):
        traces.append(1)
        return ivy_like.sum(p.layer.w * p.scale) + ivy_like.sum(p.layer.b**2)

    g = jax.jit(jax.grad(loss))
    grads = g(_params("jax", ("w", "b")))
    assert type(grads) is Container
    np.testing.assert_allclose(np.asarray(grads.layer.w), [2.0, 2.0])
    np.testing.assert_allclose(np.asarray(grads.layer.b), [6.0])
    np.testing.assert_allclose(np.asarray(grads.scale), 3.0)
    g(_params("jax", ("b", "w")))  # same structure, other insertion order: no retrace
    assert len(traces) == 1


def test_jax_grad_of_container_methods():
    jax = pytest.importorskip("jax")
    ivy_like.get_backend("jax")
    params = _params("jax")

    def loss(p):
        frozen = p.stop_gradient(key_chains="layer/b")
        return ivy_like.sum(frozen.layer.w) + ivy_like.sum(frozen.layer.b)

    grads = jax.grad(loss)(params)
    np.testing.assert_allclose(np.asarray(grads.layer.w), [1.0, 1.0])
    np.testing.assert_allclose(np.asarray(grads.layer.b), [0.0])


def test_torch_func_grad_takes_and_returns_containers():
    torch = pytest.importorskip("torch")
    ivy_like.get_backend("torch")
    import torch.utils._pytree as pytree

    params = _params("torch")
    leaves, spec = pytree.tree_flatten(params)
    assert len(leaves) == 3 and pytree.tree_unflatten(leaves, spec).cont_identical(params)

    def loss(p):
        return (p.layer.w * p.scale).sum() + (p.layer.b**2).sum()

    grads = torch.func.grad(loss)(params)
    assert type(grads) is Container
    np.testing.assert_allclose(grads.layer.w.numpy(), [2.0, 2.0])
    np.testing.assert_allclose(grads.layer.b.numpy(), [6.0])


@pytest.mark.parametrize("compiler", ["eager", "inductor"])
def test_torch_compile_fullgraph_takes_and_returns_containers(compiler):
    torch = pytest.importorskip("torch")
    ivy_like.get_backend("torch")
    params = _params("torch")

    def step(p):
        # Native torch ops on the leaves: attribute, key-chain access and construction.
        return Container(w=p.layer.w * p.scale, b={"c": p["layer/b"] + 1})

    compiled = torch.compile(step, fullgraph=True, backend=compiler)
    out = compiled(params)
    assert type(out) is Container and type(out.b) is Container
    np.testing.assert_allclose(out.w.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(out.b.c.numpy(), [4.0])
    again = compiled(_params("torch", ("b", "w")))
    np.testing.assert_allclose(again.w.numpy(), [2.0, 4.0])


def test_torch_compile_fullgraph_with_container_ops():
    torch = pytest.importorskip("torch")
    ivy_like.get_backend("torch")
    compiled = torch.compile(lambda p: p * 2, fullgraph=True, backend="eager")
    out = compiled(_params("torch"))
    np.testing.assert_allclose(out.layer.w.numpy(), [2.0, 4.0])


def test_optree_with_own_namespace():
    optree = pytest.importorskip("optree")
    c = Container(b=1, a={"d": 2, "c": 3})
    leaves, spec = optree.tree_flatten(c, namespace="ivy_like")
    assert leaves == [3, 2, 1]
    back = optree.tree_unflatten(spec, leaves)
    assert type(back) is Container and back.cont_to_dict() == {"a": {"c": 3, "d": 2}, "b": 1}
    assert optree.tree_leaves(c) == [c]  # other namespaces do not see it


def test_tf_nest_and_tf_function():
    tf = pytest.importorskip("tensorflow")
    ivy_like.get_backend("tensorflow")
    params = _params("tensorflow")
    assert len(tf.nest.flatten(params)) == 3
    doubled = tf.nest.map_structure(lambda x: x * 2, params)
    assert type(doubled) is Container and type(doubled.layer) is Container

    @tf.function
    def step(p):
        return p * 2 + 1

    out = step(params)
    assert type(out) is Container
    np.testing.assert_allclose(out.layer.w.numpy(), [3.0, 5.0])
    with tf.GradientTape() as tape:
        tape.watch(tf.nest.flatten(params))
        loss = tf.reduce_sum(params.layer.w * params.scale)
    g = tape.gradient(loss, params)
    assert type(g) is Container
    np.testing.assert_allclose(g.layer.w.numpy(), [2.0, 2.0])


def test_dm_tree():
    tree = pytest.importorskip("tree")
    c = Container(b=1, a={"d": 2, "c": 3})
    assert tree.flatten(c) == [3, 2, 1]
    mapped = tree.map_structure(lambda x: x * 10, c)
    assert type(mapped) is Container and mapped.a.c == 30


def _run(code: str) -> str:
    env = dict(os.environ, PYTHONPATH=ROOT)
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_import_registers_nothing_and_imports_no_framework():
    out = _run(
        """
        import sys
        import ivy_like
        c = ivy_like.Container(a={"b": ivy_like.array([1.0])})
        c = c + 1
        print(sorted(m for m in ("jax", "torch", "tensorflow", "mlx", "optree", "tree")
                     if m in sys.modules))
        """
    )
    assert out == "[]"


def test_registered_with_jax_imported_after_containers_without_our_backend():
    pytest.importorskip("jax")
    out = _run(
        """
        import numpy as np
        import ivy_like
        c = ivy_like.Container(a={"b": np.ones(2, np.float32)}, z=np.zeros(1, np.float32))
        import jax
        d = c.negative()                       # any Container op or creation registers it
        print(len(jax.tree_util.tree_leaves(d)), len(jax.tree_util.tree_leaves(c)))
        print("jax" in ivy_like.core.backend._loaded)
        """
    )
    assert out == "2 2\nFalse"


def test_registered_when_framework_was_imported_first():
    pytest.importorskip("torch")
    out = _run(
        """
        import torch
        import torch.utils._pytree as pytree
        import ivy_like
        c = ivy_like.Container.__new__(ivy_like.Container)  # not even through __init__
        dict.update(c, {"b": torch.ones(1), "a": torch.zeros(2)})
        leaves = pytree.tree_leaves(c)
        print([tuple(x.shape) for x in leaves])
        """
    )
    assert out == "[(2,), (1,)]"
