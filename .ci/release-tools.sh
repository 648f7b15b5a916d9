# The release tools' versions, sourced by .ci/release-snapshot.sh and the
# release workflow, so a snapshot here builds with what a tag publishes.
goreleaser=github.com/goreleaser/goreleaser/v2@v2.15.1
cyclonedx=github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@v1.10.0
