"""Teach the token reader (:mod:`vision.tokennet`) on sets written by :mod:`training.crops`.

``python training/train.py SET.npz [SET.npz ...] --out vision/tokennet.onnx [--epochs N]``,
in a venv with PyTorch (``training/README.md``: the project itself never imports it; ONNX
Runtime or OpenCV's DNN module runs the exported network). The net: three stages of 3x3
convolutions (76, 38 and 19 px, the last dilated to see a token's neighbours), the deepest
added back at 38 px, then six maps: a heat map per token kind (a Gaussian of 0.9 cells at each
centre, CenterNet's penalty-reduced focal loss) and the share of each cell something covers
(binary cross-entropy). Every lesson is shown turned by quarter turns and mirrored (a reveal
area has no up). Frames are held out by seed for validation: the share of areas whose five
counts are all exact, as the detector decodes them.
"""

from __future__ import annotations

import argparse
import itertools
import math
import time

import numpy as np
import torch
from torch import nn

INPUT, OUTPUT, KINDS = 76, 38, 5
SIGMA = 0.9
PEAK = 0.4


def block(cin: int, cout: int, stride: int = 1, dilation: int = 1) -> nn.Sequential:
    """A 3x3 convolution, batch norm and ReLU."""
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class TokenNet(nn.Module):
    """The reader: BGR 0-255 in (N, 3, 76, 76), six maps 0-1 out (N, 6, 38, 38)."""

    def __init__(self, widths=(12, 20, 32)) -> None:
        super().__init__()
        a, b, c = widths
        self.stem = nn.Sequential(block(3, a), block(a, a))
        self.mid = nn.Sequential(block(a, b, 2), block(b, b))
        self.deep = nn.Sequential(block(b, c, 2), block(c, c), block(c, c, dilation=2))
        self.back = nn.Conv2d(c, b, 1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.head = nn.Sequential(block(b, b), nn.Conv2d(b, KINDS + 1, 1))
        nn.init.constant_(self.head[-1].bias, -2.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """The six maps of a batch of crops."""
        x = x / 255.0 - 0.5
        mid = self.mid(self.stem(x))
        deep = self.deep(mid)
        return torch.sigmoid(self.head(mid + self.up(self.back(deep))))


def from_onnx(net: TokenNet, path: str) -> None:
    """Load an exported reader's weights into ``net`` to teach it further.

    The export fuses each batch norm into its convolution, so the convolutions take the fused
    weights and biases and each batch norm becomes the identity plus the bias (weight 1, mean 0,
    variance 1 - eps), its statistics then frozen by :func:`freeze_norms`."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(path)
    weights = {i.name: numpy_helper.to_array(i) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    mine = [m for m in net.modules() if isinstance(m, nn.Conv2d)]
    assert len(convs) == len(mine), "the file's network is not this one"
    following = {}  # each convolution's batch norm, where it has one
    for seq in net.modules():
        if isinstance(seq, nn.Sequential):
            for a, b in itertools.pairwise(seq):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    following[a] = b
    with torch.no_grad():
        for node, conv in zip(convs, mine, strict=True):
            weight = torch.from_numpy(weights[node.input[1]].copy())
            bias = torch.from_numpy(weights[node.input[2]].copy())
            conv.weight.copy_(weight)
            norm = following.get(conv)
            if norm is None:
                conv.bias.copy_(bias)
                continue
            norm.weight.fill_(1.0)
            norm.bias.copy_(bias)
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)


def freeze_norms(net: nn.Module) -> None:
    """Batch norms keep their statistics (eval mode) while the rest of ``net`` learns."""
    for m in net.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def heatmaps(rows: np.ndarray) -> np.ndarray:
    """(KINDS, OUTPUT, OUTPUT) Gaussians at token centres given in input px."""
    out = np.zeros((KINDS, OUTPUT, OUTPUT), np.float32)
    g = np.arange(OUTPUT, dtype=np.float32)
    for kind, x, y in rows:
        cx, cy = (x + 0.5) / 2 - 0.5, (y + 0.5) / 2 - 0.5
        blob = np.exp(-((g[None, :] - cx) ** 2 + (g[:, None] - cy) ** 2) / (2 * SIGMA**2))
        k = int(kind)
        np.maximum(out[k], blob, out=out[k])
        ix, iy = round(cx), round(cy)
        if 0 <= ix < OUTPUT and 0 <= iy < OUTPUT:
            out[k, iy, ix] = 1.0
    return out


def turn(crop, rows, cover, k: int, flip: bool):
    """A lesson turned by ``k`` quarter turns (anticlockwise) and mirrored left-right."""
    n = INPUT - 1
    rows = rows.copy()
    if flip:
        crop, cover = crop[:, ::-1], cover[:, ::-1]
        rows[:, 1] = n - rows[:, 1]
    for _ in range(k):
        crop, cover = np.rot90(crop), np.rot90(cover)
        x, y = rows[:, 1].copy(), rows[:, 2].copy()
        rows[:, 1], rows[:, 2] = y, n - x
    return np.ascontiguousarray(crop), rows, np.ascontiguousarray(cover)


def focal(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss over the kind maps."""
    pred = pred.clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    pos_loss = torch.log(pred) * (1 - pred) ** 2 * pos
    neg_loss = torch.log(1 - pred) * pred**2 * (1 - target) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def decode_counts(maps: np.ndarray, peak: float = PEAK) -> np.ndarray:
    """(N, KINDS) counts as vision.tokennet decodes them: peaks (3x3 maxima above ``peak``)
    of the strongest kind at each cell, inside the area, named by that kind."""
    t = torch.from_numpy(maps[:, :KINDS])
    best, kind = t.max(dim=1)
    top = nn.functional.max_pool2d(best[:, None], 3, 1, 1)[:, 0]
    g = (np.arange(OUTPUT) + 0.5) * 151 / OUTPUT - 75.5
    inside = torch.from_numpy(np.hypot(g[None, :], g[:, None]) <= 65 + 4)
    peaks = (best == top) & (best > peak) & inside
    onehot = nn.functional.one_hot(kind, KINDS).permute(0, 3, 1, 2)
    return (onehot * peaks[:, None]).sum(dim=(2, 3)).numpy().astype(int)


g = (np.arange(OUTPUT) + 0.5) * 151 / OUTPUT - 75.5
IN_AREA = np.hypot(g[None, :], g[:, None]) <= 65
COVERED = 8.0


def report(maps, truth, covers, epoch: int, loss: float, seconds: float) -> None:
    """Held-out figures as the detector would decide: exact counts on areas nothing covers
    (1% of the area or more, as the judge holds them), refusals there, and misreads (a wrong
    count not refused) on covered ones."""
    refused = (maps[:, KINDS] * IN_AREA).sum(axis=(1, 2)) > COVERED
    covered = (covers.astype(np.float32) / 255 * IN_AREA).sum(axis=(1, 2)) >= 8.4
    right = (decode_counts(maps) == truth).all(axis=1)
    clear = ~covered
    print(
        f"epoch {epoch + 1}: loss {loss:.4f}; held out: clear areas {clear.sum()}, exact "
        f"{(right & ~refused)[clear].mean():.3f}, refused {refused[clear].mean():.3f}; covered "
        f"{covered.sum()}, refused {refused[covered].mean():.3f}, misread "
        f"{(~refused & ~right)[covered].mean():.3f}; {seconds:.0f} s",
        flush=True,
    )


def read(net: nn.Module, crops: np.ndarray) -> np.ndarray:
    """The network's maps for ``crops`` (N, INPUT, INPUT, 3 uint8), in eval mode."""
    net.eval()
    with torch.no_grad():
        return np.concatenate(
            [
                net(
                    torch.from_numpy(crops[b : b + 256].astype(np.float32).transpose(0, 3, 1, 2))
                ).numpy()
                for b in range(0, len(crops), 256)
            ]
        )


def load(paths: list[str]):
    """Every lesson of the sets: crops, cover maps, token rows and the frame each came from."""
    crops, covers, rows, frames = [], [], [], []
    for p in paths:
        d = np.load(p)
        offs = np.concatenate([[0], np.cumsum(d["counts"])])
        crops.append(d["crops"])
        covers.append(d["covers"])
        frames.append(d["frames"])
        tokens = d["tokens"]  # (an NpzFile reads the array again at every d["tokens"])
        rows += [tokens[offs[i] : offs[i + 1]].copy() for i in range(len(d["counts"]))]
    return np.concatenate(crops), np.concatenate(covers), rows, np.concatenate(frames)


def truth_counts(rows) -> np.ndarray:
    """(N, KINDS) true counts from the lessons' token rows."""
    out = np.zeros((len(rows), KINDS), int)
    for i, r in enumerate(rows):
        for k in r[:, 0].astype(int):
            out[i, k] += 1
    return out


def main() -> None:
    """Teach, report each epoch, save the weights and export the ONNX file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+")
    parser.add_argument("--out", default="vision/tokennet.onnx")
    parser.add_argument("--epochs", type=int, default=24)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--widths", default="12,20,32")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--resume",
        default=None,
        help="a checkpoint (OUT.ckpt, written after every epoch): go on from its next epoch",
    )
    parser.add_argument(
        "--from-onnx", default=None, help="teach further an exported reader (its norms frozen)"
    )
    args = parser.parse_args()
    torch.manual_seed(1)
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(1)
    crops, covers, rows, frames = load(args.sets)
    held = frames % 20 == 0
    train_i, val_i = np.flatnonzero(~held), np.flatnonzero(held)
    print(f"{len(train_i)} training lessons, {len(val_i)} held out", flush=True)
    net = TokenNet(tuple(int(w) for w in args.widths.split(",")))
    if args.from_onnx:
        from_onnx(net, args.from_onnx)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    steps = args.epochs * math.ceil(len(train_i) / args.batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, args.lr, total_steps=steps, pct_start=0.1)
    first = 0
    if args.resume:  # the whole state, so that a teach stopped between epochs goes on as if not
        saved = torch.load(args.resume, weights_only=False)
        net.load_state_dict(saved["net"])
        opt.load_state_dict(saved["opt"])
        sched.load_state_dict(saved["sched"])
        rng.bit_generator.state = saved["rng"]
        torch.set_rng_state(saved["torch_rng"])
        first = saved["epoch"] + 1
        print(f"resumed after epoch {saved['epoch'] + 1}", flush=True)  # as report() counts
    bce = nn.BCELoss()
    val_truth = truth_counts([rows[i] for i in val_i])
    val_covers = np.stack([covers[i] for i in val_i])
    if args.from_onnx:  # where the fine-tune starts from, on the same held-out lessons
        report(read(net, crops[val_i]), val_truth, val_covers, -1, float("nan"), 0.0)
    for epoch in range(first, args.epochs):
        net.train()
        if args.from_onnx:
            freeze_norms(net)
        order = rng.permutation(train_i)
        t0, total = time.time(), 0.0
        for b in range(0, len(order), args.batch):
            idx = order[b : b + args.batch]
            xs, hs, cs = [], [], []
            for i in idx:
                k, flip = int(rng.integers(4)), rng.random() < 0.5
                c, r, v = turn(crops[i], rows[i], covers[i], k, flip)
                gain = rng.uniform(0.92, 1.08) * rng.uniform(0.96, 1.04, 3)
                xs.append(np.clip(c * gain, 0, 255).astype(np.float32).transpose(2, 0, 1))
                hs.append(heatmaps(r))
                cs.append(v.astype(np.float32) / 255)
            x = torch.from_numpy(np.stack(xs))
            out = net(x)
            loss = focal(out[:, :KINDS], torch.from_numpy(np.stack(hs))) + 2.0 * bce(
                out[:, KINDS], torch.from_numpy(np.stack(cs)).clamp(0, 1)
            )
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        report(
            read(net, crops[val_i]),
            val_truth,
            val_covers,
            epoch,
            total / len(order),
            time.time() - t0,
        )
        torch.save(net.state_dict(), args.out + ".pt")
        checkpoint = {
            "net": net.state_dict(),
            "opt": opt.state_dict(),
            "sched": sched.state_dict(),
            "rng": rng.bit_generator.state,
            "torch_rng": torch.get_rng_state(),
            "epoch": epoch,
        }
        torch.save(checkpoint, args.out + ".ckpt")
    net.eval()
    torch.onnx.export(
        net,
        torch.zeros(1, 3, INPUT, INPUT),
        args.out,
        input_names=["crops"],
        output_names=["maps"],
        dynamic_axes={"crops": {0: "n"}, "maps": {0: "n"}},
        opset_version=13,
        dynamo=False,
    )
    print("wrote", args.out)


if __name__ == "__main__":
    main()
