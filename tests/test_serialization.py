"""minigrad.save / minigrad.load against torch.save / torch.load: what comes back, and the errors."""
import io
import pickle
import re

import pytest

import minigrad
from minigrad import nn

WEIGHTS_ONLY_START = ("Weights only load failed. This file can still be loaded, to do so you have two options, "
                      "\x1b[1mdo those steps only if you trust the source of the checkpoint\x1b[0m. \n\t(1) In "
                      "PyTorch 2.6, we changed the default value of the `weights_only` argument in `minigrad.load` "
                      "from `False` to `True`.")


def roundtrip(obj, **load_args):
    buffer = io.BytesIO()
    minigrad.save(obj, buffer)
    buffer.seek(0)
    return minigrad.load(buffer, **load_args)


def test_a_state_dict_comes_back_equal_and_loads_into_a_fresh_model(tmp_path):
    minigrad.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    minigrad.save(model.state_dict(), tmp_path / "w.pth")  # a path, as the tutorials write it
    state = minigrad.load(str(tmp_path / "w.pth"), weights_only=True)
    assert type(state).__name__ == "OrderedDict" and list(state) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    assert all(not v.requires_grad and v.is_leaf for v in state.values())
    fresh = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    assert repr(fresh.load_state_dict(state)) == "<All keys matched successfully>"
    assert all(minigrad.equal(a, b) for a, b in zip(model.parameters(), fresh.parameters()))


def test_a_tensor_is_saved_without_its_graph_or_grad():
    x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    x.grad = minigrad.ones(2)
    y = x * 2
    back = roundtrip({"x": x, "y": y, "size": minigrad.Size([2, 3]), "dtype": minigrad.float64, "n": [1, (2, "a")]})
    assert back["y"].is_leaf and back["y"].requires_grad and back["y"].grad_fn is None
    assert back["y"].tolist() == [2.0, 4.0] and back["x"].grad is None  # (as torch: pickling drops .grad)
    assert back["size"] == minigrad.Size([2, 3]) and back["dtype"] is minigrad.float64 and back["n"] == [1, (2, "a")]
    p = roundtrip(nn.Parameter(minigrad.ones(2)))
    assert isinstance(p, nn.Parameter) and p.requires_grad


def test_weights_only_refuses_a_whole_module_with_torchs_message():
    buffer = io.BytesIO()
    minigrad.save(nn.Linear(2, 1), buffer)
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError) as info:
        minigrad.load(buffer)
    message = str(info.value)
    assert message.startswith(WEIGHTS_ONLY_START)
    assert ("WeightsUnpickler error: Unsupported global: GLOBAL minigrad.nn.linear.Linear was not an allowed "
            "global by default. Please use `minigrad.serialization.add_safe_globals([minigrad.nn.linear.Linear])`"
            in message)
    buffer.seek(0)
    assert repr(minigrad.load(buffer, weights_only=False)) == "Linear(in_features=2, out_features=1, bias=True)"


def test_safe_globals_allow_a_class_of_your_own():
    buffer = io.BytesIO()
    minigrad.save(nn.ReLU(), buffer)
    with minigrad.serialization.safe_globals([nn.ReLU]):
        buffer.seek(0)
        assert repr(minigrad.load(buffer)) == "ReLU()"
    buffer.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL minigrad.nn.activation.ReLU was not an allowed"):
        minigrad.load(buffer)
    assert minigrad.serialization.get_safe_globals() == []


def test_map_location_the_cpu_only():
    assert roundtrip(minigrad.ones(2), map_location="cpu").tolist() == [1.0, 1.0]
    assert roundtrip(minigrad.ones(2), map_location=minigrad.device("cpu")).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match=re.escape(
            "Attempting to deserialize object on a CUDA device but minigrad.cuda.is_available() is False. If you "
            "are running on a CPU-only machine, please use minigrad.load with map_location=minigrad.device('cpu') "
            "to map your storages to the CPU.")):
        roundtrip(minigrad.ones(2), map_location="cuda:0")
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit pickle_module is specified"):
        roundtrip(minigrad.ones(2), pickle_module=pickle)


def test_the_errors_are_torchs():
    torch = pytest.importorskip("torch")

    def message(T, fn):
        with pytest.raises(Exception) as info:
            fn(T)
        return type(info.value).__name__, re.sub(r"\btorch\.", "minigrad.", str(info.value))

    def whole_module(T):
        buffer = io.BytesIO()
        T.save(T.nn.Linear(2, 1), buffer)
        buffer.seek(0)
        T.load(buffer)

    def cuda(T):
        buffer = io.BytesIO()
        T.save(T.ones(2), buffer)
        buffer.seek(0)
        T.load(buffer, map_location="cuda")

    got, want = message(minigrad, whole_module), message(torch, whole_module)
    assert got[0] == want[0]
    first = lambda text: text.split("WeightsUnpickler error")[0]  # noqa: E731  (the class path differs)
    assert first(got[1]) == first(want[1])
    assert message(minigrad, cuda) == message(torch, cuda)
