#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace topodeck {

// A program run without a shell: argv as given (argv[0] looked up in PATH), with a deadline.
struct ChildProcessRequest {
    std::vector<std::string> argv{};
    // Set over this process's environment, then removed.
    std::vector<std::pair<std::string, std::string>> setEnvironment{};
    std::vector<std::string> unsetEnvironment{};
    // Hand over this process's stdin (an interactive credential plugin); otherwise /dev/null,
    // and the child gets a process group of its own so that a timeout stops what it started too.
    bool inheritStdin = false;
    std::chrono::milliseconds timeout{30000};
    // More on stdout than this kills the child (OutputTooLarge); the failure names the limit and
    // limitVariable, the setting that raises it.
    std::size_t maxStdout = std::size_t{1} << 20;
    std::string limitVariable{};
    const std::atomic<bool>* cancelled = nullptr; // stops the child when set
    // Each line written to stderr, as it comes (a device-login code to show, say).
    std::function<void(std::string_view line)> onStderrLine{};
};

struct ChildProcessResult {
    enum class Outcome { Exited, Signalled, NotFound, CannotRun, TimedOut, Cancelled, OutputTooLarge };
    Outcome outcome = Outcome::CannotRun;
    int exitCode = -1; // Exited
    int signal = 0;    // Signalled
    std::string out;
    std::string err;       // the first 64 KiB
    std::string failure;   // CannotRun: why (strerror); TimedOut: "no answer after 30 s"

    bool succeeded() const { return outcome == Outcome::Exited && exitCode == 0; }
    // "exited with status 1: <last stderr lines>", "was killed by signal 9", "not found", ...
    std::string describe(std::size_t stderrLines = 3) const;
    // ": <line> / <line>" of the last non-empty stderr lines, or "".
    std::string stderrTail(std::size_t lines = 3) const;
};

ChildProcessResult runChildProcess(const ChildProcessRequest& request);

// "250 ms", "30 s".
std::string describeDuration(std::chrono::milliseconds duration);

} // namespace topodeck
