"""``python -m minigrad_course.exercises digest QUESTION ANSWER``: the fingerprint a prediction question
stores instead of its answer (see ``_check.prediction``)."""
import sys

from ._check import digest


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3 or args[0] != "digest":
        print("usage: python -m minigrad_course.exercises digest QUESTION ANSWER", file=sys.stderr)
        return 2
    question, answer = args[1], args[2]
    try:
        answer = float(answer)   # a number question: 0.25, 6, -1e-3
    except ValueError:
        pass                     # a choice: a, b, c
    print(digest(question, answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
