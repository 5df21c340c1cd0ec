#!/usr/bin/python3
"""Build the synthetic test model: an energy detector, NOT speech recognition.

It is a tiny ONNX graph in the layout sherpa-onnx's streaming "T-one CTC" recognizer loads
(OnlineToneCtcModel): raw 8 kHz samples in 300 ms chunks as int32 [N, 2400, 1] plus a float16
state [N, state_dim]; out come CTC log-probs [N, 10, 2] (one per 30 ms) and the next state.
Each 30 ms frame whose mean |sample| exceeds a threshold scores token "x", every other frame the
blank, so audio with N bursts separated by silence decodes to N "x" tokens. It has no weights
learned from anything and never claims to understand speech; it exists so the real recognizer,
host process, install path and transcription endpoints can be exercised end to end.

Usage: make_synthetic_asr_model.py OUT_DIR   (writes model.onnx and tokens.txt)
Needs Debian's python3-onnx (1.12) and python3-numpy.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

CHUNK = 2400  # 300 ms at 8 kHz: what OnlineToneCtcModel feeds per step
FRAMES = 10  # output frames per chunk (30 ms each), as the recognizer assumes
STATE_DIM = 4
# int16-scale mean |sample| above which a frame counts as a burst (about -30 dBFS).
THRESHOLD = 1000.0


def build() -> onnx.ModelProto:
    const = lambda name, arr: numpy_helper.from_array(np.array(arr), name)  # noqa: E731
    inits = [
        const("shape", np.array([0, FRAMES, CHUNK // FRAMES], dtype=np.int64)),
        const("axis2", np.array([2], dtype=np.int64)),
        const("threshold", np.array(THRESHOLD, dtype=np.float32)),
        const("scale", np.array(20.0, dtype=np.float32)),
        const("offset", np.array(10.0, dtype=np.float32)),
    ]
    nodes = [
        helper.make_node("Cast", ["signal"], ["signal_f"], to=TensorProto.FLOAT),
        helper.make_node("Reshape", ["signal_f", "shape"], ["frames"]),
        helper.make_node("Abs", ["frames"], ["frames_abs"]),
        helper.make_node("ReduceMean", ["frames_abs"], ["energy"], axes=[2], keepdims=0),
        helper.make_node("Greater", ["energy", "threshold"], ["loud"]),
        helper.make_node("Cast", ["loud"], ["loud_f"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["loud_f", "axis2"], ["loud_3d"]),
        # token "x" scores +10 on a loud frame and -10 on a quiet one; the blank the opposite.
        helper.make_node("Mul", ["loud_3d", "scale"], ["scaled"]),
        helper.make_node("Sub", ["scaled", "offset"], ["x_score"]),
        helper.make_node("Neg", ["x_score"], ["blank_score"]),
        helper.make_node("Concat", ["blank_score", "x_score"], ["log_probs"], axis=2),
        # The detector has no memory; the state is passed through because the layout requires one.
        helper.make_node("Identity", ["state"], ["next_state"]),
    ]
    graph = helper.make_graph(
        nodes,
        "synthetic_energy_detector",
        [
            helper.make_tensor_value_info("signal", TensorProto.INT32, ["N", CHUNK, 1]),
            helper.make_tensor_value_info("state", TensorProto.FLOAT16, ["N", STATE_DIM]),
        ],
        [
            helper.make_tensor_value_info("log_probs", TensorProto.FLOAT, ["N", FRAMES, 2]),
            helper.make_tensor_value_info("next_state", TensorProto.FLOAT16, ["N", STATE_DIM]),
        ],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], producer_name="cccc-synthetic-test-model")
    model.ir_version = 7
    model.doc_string = "synthetic test model, energy detector, not speech recognition"
    helper.set_model_props(model, {"frame_length_ms": "300", "state_dim": str(STATE_DIM), "sample_rate": "8000", "model_type": "synthetic_energy_detector"})
    onnx.checker.check_model(model)
    return model


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    onnx.save(build(), os.path.join(out, "model.onnx"))
    with open(os.path.join(out, "tokens.txt"), "w") as f:
        f.write("<blk> 0\nx 1\n")


if __name__ == "__main__":
    main()
