# TapKit: `make demo` analyses the bundled example data, `make test` builds the docs, checks
# signal handling on the release binary (Scripts/check-release-signals) and runs every test on
# an optimised build, `make fuzz` runs the libFuzzer targets (RUNS inputs each; Docs/fuzzing.md).
SWIFT ?= swift
RELEASE = .build/release
RUNS ?= 1000000

PREFIX ?= /usr/local
MANUALS = .build/plugins/GenerateManual/outputs/tapkit

DOC_TARGETS = TapAudio TapStatistics TapOnsets TapMatching TapData TapLatency TapKit TapMetronome TapTempo TapInput TapCapture TapSim TapAccuracy TapCorpus

.PHONY: deps build demo test docs bench fixtures fuzz install uninstall clean

deps:
	@Scripts/install-deps

build: deps
	$(SWIFT) build -c release --product tapkit

demo: build
	$(RELEASE)/tapkit latency Fixtures/data

# The tests run on an optimised build (bounds, overflow and exclusivity checks stay on): the
# corpus and simulation tests synthesise and analyse minutes of audio, and the whole run is 6×
# faster than on a debug build (Docs/performance.md, "The test suite under load"). It has its
# own scratch path, so that `make demo`'s release build and this one (compiled for testable
# imports) do not rebuild each other.
test: deps docs
	Scripts/clear-stale-jack
	Scripts/check-release-signals
	$(SWIFT) test -c release --scratch-path .build/tests

# The DocC catalogs and every public symbol's comment, built by swift-docc-plugin (archives in
# .build/plugins/Swift-DocC/outputs); a broken link, an undocumented parameter or a public
# declaration without a comment fails the build.
docs:
	Scripts/check-doc-comments
	$(SWIFT) package generate-documentation --warnings-as-errors $(DOC_TARGETS:%=--target %)

bench: deps
	WITH_PEERS=1 Scripts/install-deps
	Scripts/bench

fuzz: deps
	RUNS=$(RUNS) SWIFT=$(SWIFT) Scripts/fuzz

fixtures: build
	Scripts/regenerate-fixtures

# The binary, its manual page (from the command's own help, by argument-parser's
# generate-manual) and bash, zsh and fish completions, under $(DESTDIR)$(PREFIX).
install: build
	$(SWIFT) package --allow-writing-to-package-directory generate-manual --multi-page
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	install -m 755 $(RELEASE)/tapkit $(DESTDIR)$(PREFIX)/bin/tapkit
	install -m 644 $(MANUALS)/tapkit*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	$(RELEASE)/tapkit --generate-completion-script bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tapkit
	$(RELEASE)/tapkit --generate-completion-script zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tapkit
	$(RELEASE)/tapkit --generate-completion-script fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tapkit.fish
	@echo "installed tapkit $$($(RELEASE)/tapkit --version) under $(DESTDIR)$(PREFIX)" >&2

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tapkit $(DESTDIR)$(PREFIX)/share/man/man1/tapkit*.1 \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/tapkit \
		$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tapkit $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tapkit.fish

clean:
	rm -rf .build Fuzz/.build
