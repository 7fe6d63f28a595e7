# minigrad notebooks: `make lab` opens the series, `make test` runs every test.
# Both create .venv on first use; re-running them installs nothing new.

PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
JUPYTER := $(VENV)/bin/jupyter
PORT   ?= 8888
# `make lab WITH_TORCH=1` adds torch to the venv, so the notebooks' side-by-side cells run PyTorch
# too; `make test WITH_TORCH=1` (or `make test-torch`) does the same for the tests, so the parity
# tests also compare live, not only against the recorded fixtures.  Always this pinned version.
# On Linux PyPI's wheel of it pulls the CUDA libraries (gigabytes): point pip at PyTorch's CPU
# wheels with e.g. TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu
WITH_TORCH ?=
TORCH_VERSION := 2.13.0
TORCH_INDEX_URL ?=
SANITIZE := notebooks/sanitize.cfg
NBVAL := --nbval --nbval-current-env --nbval-sanitize-with $(SANITIZE)
# The tests run on every core (pytest-xdist); conftest.py keeps the notebooks, which share their folder, on one
# worker in order, and nbgrader's course on another.  `make test JOBS=0` runs everything in one process.
JOBS   ?= auto
XDIST  := -n $(JOBS) --dist loadscope

.PHONY: lab lab-student test test-torch test-unit test-notebooks notebooks fixtures fuzz bench bench-instructions reading-path student course \
        test-e2e screenshots dot trust setup clean

# ---- set-up -------------------------------------------------------------------------
$(PY):
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "minigrad needs Python >= 3.10, this is " + sys.version.split()[0]'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.lab: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[lab]'
	@touch $@

$(VENV)/.test: pyproject.toml $(VENV)/.lab
	$(PY) -m pip install --quiet -e '.[lab,test]'
	@touch $@

$(VENV)/.torch: | $(PY)
	$(PY) -m pip install --quiet torch==$(TORCH_VERSION) $(if $(TORCH_INDEX_URL),--index-url $(TORCH_INDEX_URL))
	@touch $@

setup: $(VENV)/.test

dot:
	@scripts/ensure-dot.sh

trust: $(VENV)/.lab
	@$(JUPYTER) trust notebooks/*.ipynb >/dev/null

# ---- the two commands ---------------------------------------------------------------
# (as root, e.g. in a container, Jupyter refuses to start without --allow-root)
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root)

# JupyterLab at the repository root, so the file browser shows minigrad/ beside notebooks/, with
# notebooks/00_start_here.ipynb open: the workspace scripts/lab_workspace.json says so (imported
# afresh each time, so the layout starts clean).  `make lab-student` does the same for student/.
LAB_AT_ROOT := --ServerApp.root_dir=. --port=$(PORT) $(ROOT_FLAG)

lab: $(VENV)/.lab dot trust $(if $(WITH_TORCH),$(VENV)/.torch)
	$(JUPYTER) lab workspaces import --name=minigrad scripts/lab_workspace.json >/dev/null
	$(JUPYTER) lab $(LAB_AT_ROOT) --LabApp.default_url=/lab/workspaces/minigrad

test: $(VENV)/.test dot $(if $(WITH_TORCH),$(VENV)/.torch)
	$(PY) -m pytest $(XDIST) tests --ignore=tests/e2e $(NBVAL) notebooks

# ---- the rest -----------------------------------------------------------------------
test-torch:
	$(MAKE) test WITH_TORCH=1

test-unit: $(VENV)/.test
	$(PY) -m pytest $(XDIST) tests --ignore=tests/e2e

test-notebooks: $(VENV)/.test dot
	$(PY) -m pytest $(NBVAL) notebooks

# Re-execute every notebook in place from a fresh kernel (then commit the outputs).
notebooks: $(VENV)/.test dot
	$(PY) scripts/execute_notebooks.py notebooks/*.ipynb

# Re-record the PyTorch reference values in tests/fixtures/ (needs torch).
fixtures: $(VENV)/.test $(VENV)/.torch
	$(PY) scripts/make_fixtures.py
	$(PY) scripts/make_difftest_fixtures.py
	$(PY) scripts/make_program_fixtures.py
	$(PY) scripts/make_random_fixtures.py
	$(PY) scripts/make_float_kernel_fixtures.py

# The differential tester, live: N random autograd programs on torch and on minigrad
# (`make fuzz N=2000`); prints `K/N programs agree` and a shrunk repro per class of disagreement.
N ?= 20000
fuzz: $(VENV)/.test $(VENV)/.torch
	PYTHONPATH=tests $(PY) -m difftest -n $(N)

# The peers a user could pick instead: micrograd, HIPS autograd, JAX (eager, CPU); scikit-learn
# for its digits data set.  Only `make bench` needs them.
BENCH_PEERS := micrograd==0.1.0 autograd==1.9.1 jax[cpu]==0.10.2 scikit-learn==1.9.1
$(VENV)/.bench: $(VENV)/.test $(VENV)/.torch
	$(PY) -m pip install --quiet $(BENCH_PEERS)
	@touch $@

bench: $(VENV)/.bench
	$(PY) bench/run.py --readme README.md

# Machine instructions per op of the small-op chain (valgrind): steady where timings are not.
bench-instructions: $(VENV)/.test
	$(PY) bench/instructions.py

# what a newcomer's first program runs of minigrad: statements per file (fails over 200, or in a machinery module)
reading-path: $(VENV)/.test
	$(PY) scripts/reading_path.py

student: $(VENV)/.lab
	$(PY) -m minigrad_course.classroom release notebooks/ --out student/

lab-student: student dot
	@$(JUPYTER) trust student/*.ipynb >/dev/null
	sed 's#notebooks/#student/#g' scripts/lab_workspace.json > $(VENV)/student_workspace.json
	$(JUPYTER) lab workspaces import --name=minigrad-student $(VENV)/student_workspace.json >/dev/null
	$(JUPYTER) lab $(LAB_AT_ROOT) --LabApp.default_url=/lab/workspaces/minigrad-student

# A ready nbgrader course in course/ (course/README.md says how to release, autograde, give feedback).
course: $(VENV)/.test
	$(PY) -m minigrad_course.classroom course course/

# JupyterLab in headless Chromium (Debian's `chromium` package; Playwright drives it, no browser download)
$(VENV)/.e2e: $(VENV)/.test
	$(PY) -m pip install --quiet playwright==1.65.2
	@touch $@

test-e2e: $(VENV)/.e2e dot
	$(PY) -m pytest tests/e2e -v

screenshots: $(VENV)/.e2e dot
	MINIGRAD_SCREENSHOTS=docs $(PY) -m pytest tests/e2e -v -k screenshots

clean:
	rm -rf $(VENV) student course .pytest_cache .hypothesis
