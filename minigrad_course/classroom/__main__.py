"""``python -m minigrad_course.classroom release notebooks/ --out student/`` and
``python -m minigrad_course.classroom course course/ [--source notebooks/]``"""
import argparse
import sys

from .course import make_course
from .release import ReleaseError, release


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m minigrad_course.classroom",
                                     description="Make the student edition of the notebooks, or an nbgrader course.")
    sub = parser.add_subparsers(dest="command", required=True)
    rel = sub.add_parser("release", help="write notebooks with solutions replaced by stubs")
    rel.add_argument("source", help="folder with the instructor notebooks, e.g. notebooks/")
    rel.add_argument("--out", default="student", help="folder to write the student notebooks to")
    crs = sub.add_parser("course", help="write a ready nbgrader course directory")
    crs.add_argument("out", help="the course directory to write, e.g. course/")
    crs.add_argument("--source", default="notebooks", help="folder with the instructor notebooks")
    args = parser.parse_args(argv)
    if args.command == "course":
        try:
            assignments = make_course(args.out, args.source)
        except ReleaseError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        out = args.out.rstrip("/")
        print(f"wrote {out}/nbgrader_config.py, {out}/README.md and {len(assignments)} assignments in {out}/source/: "
              f"{', '.join(assignments)}\nnext: cd {out} && nbgrader generate_assignment {assignments[0]}")
        return 0
    try:
        written = release(args.source, args.out)
    except ReleaseError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    for path in written:
        print(f"wrote {path}")
    print(f"{len(written)} student notebooks in {args.out.rstrip('/')}/ (solutions replaced by stubs, exercise outputs "
          "cleared)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
