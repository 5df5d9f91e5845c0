#!/usr/bin/python3
"""Execute one notebook with nbclient and report the real error of a failing cell.

tslab writes a failing cell's message (type error or stack) only to the cell's
stderr stream, and nbconvert's own error text for it is empty; this prints
every cell's stderr when the notebook fails.

usage: run_notebook.py NOTEBOOK OUT_DIR [--timeout SECONDS]
Executes NOTEBOOK with its folder as the working directory and writes the
executed copy to OUT_DIR. Exit 0 when every cell ran, 1 when one failed.
"""
import argparse
import os
import sys

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError


def stderr_of(cell):
    return "".join(
        out.get("text", "")
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream" and out.get("name") == "stderr"
    )


def error_of(cell):
    parts = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "error":
            parts.append(f"{out.get('ename', '')}: {out.get('evalue', '')}".strip(": "))
            parts.extend(out.get("traceback", []))
    return "\n".join(p for p in parts if p)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("notebook")
    parser.add_argument("out_dir")
    parser.add_argument("--timeout", type=int, default=600)
    args = parser.parse_args()

    nb = nbformat.read(args.notebook, as_version=4)
    kernel = nb.metadata.get("kernelspec", {}).get("name", "tslab")
    client = NotebookClient(
        nb,
        timeout=args.timeout,
        kernel_name=kernel,
        resources={"metadata": {"path": os.path.dirname(os.path.abspath(args.notebook))}},
    )
    failed = None
    try:
        client.execute()
    except (CellExecutionError, CellTimeoutError, DeadKernelError) as exc:
        failed = exc

    os.makedirs(args.out_dir, exist_ok=True)
    out_path = os.path.join(args.out_dir, os.path.basename(args.notebook))
    nbformat.write(nb, out_path)

    if failed is None:
        print(f"ok {args.notebook} -> {out_path}")
        return 0

    print(f"FAILED {args.notebook}: {type(failed).__name__}", file=sys.stderr)
    for i, cell in enumerate(nb.cells):
        if cell.get("cell_type") != "code":
            continue
        err = stderr_of(cell)
        detail = error_of(cell)
        if err or detail:
            print(f"--- cell {i} (execution_count {cell.get('execution_count')}) ---", file=sys.stderr)
            print(cell.get("source", ""), file=sys.stderr)
            print("--- its stderr / error ---", file=sys.stderr)
            print(err or detail, file=sys.stderr)
    print(str(failed)[-2000:], file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
