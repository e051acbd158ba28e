#include "net/child_process.h"

#include "core/live/live_target.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <optional>
#include <thread>
#include <utility>

extern char** environ;

namespace topodeck {

namespace {

constexpr std::size_t kMaxStderr = 64 * 1024;

class Pipe {
public:
    Pipe() {
        if (::pipe2(m_fds, O_CLOEXEC) != 0) m_fds[0] = m_fds[1] = -1;
    }
    ~Pipe() {
        closeRead();
        closeWrite();
    }
    Pipe(const Pipe&) = delete;
    Pipe& operator=(const Pipe&) = delete;
    bool ok() const { return m_fds[0] >= 0; }
    int read() const { return m_fds[0]; }
    int write() const { return m_fds[1]; }
    void closeRead() { closeFd(m_fds[0]); }
    void closeWrite() { closeFd(m_fds[1]); }

private:
    static void closeFd(int& fd) {
        if (fd >= 0) ::close(fd);
        fd = -1;
    }
    int m_fds[2] = {-1, -1};
};

std::vector<std::string> childEnvironment(const ChildProcessRequest& request) {
    std::map<std::string, std::string> entries;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string_view text(*entry);
        const auto eq = text.find('=');
        if (eq == std::string_view::npos) continue;
        entries[std::string(text.substr(0, eq))] = std::string(text.substr(eq + 1));
    }
    for (const auto& [name, value] : request.setEnvironment) entries[name] = value;
    for (const std::string& name : request.unsetEnvironment) entries.erase(name);
    std::vector<std::string> out;
    out.reserve(entries.size());
    for (const auto& [name, value] : entries) out.push_back(name + '=' + value);
    return out;
}

bool stopRequested(const ChildProcessRequest& request) {
    return request.cancelled && request.cancelled->load();
}

} // namespace

std::string describeDuration(std::chrono::milliseconds duration) {
    if (duration < std::chrono::seconds(1)) return std::to_string(duration.count()) + " ms";
    return std::to_string(duration.count() / 1000) + " s";
}

std::string ChildProcessResult::describe(std::size_t stderrLines) const {
    std::string text;
    switch (outcome) {
    case Outcome::Exited:
        text = "exited with status " + std::to_string(exitCode);
        break;
    case Outcome::Signalled:
        text = "was killed by signal " + std::to_string(signal);
        break;
    case Outcome::NotFound:
        return "not found";
    case Outcome::CannotRun:
        return "cannot run it: " + failure;
    case Outcome::TimedOut:
    case Outcome::Cancelled:
    case Outcome::OutputTooLarge:
        return failure;
    }
    return text + stderrTail(stderrLines);
}

std::string ChildProcessResult::stderrTail(std::size_t count) const {
    std::vector<std::string_view> lines;
    std::string_view rest = err;
    while (!rest.empty()) {
        const std::size_t nl = rest.find('\n');
        std::string_view line = rest.substr(0, nl);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (!line.empty()) lines.push_back(line);
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    }
    if (lines.size() > count) lines.erase(lines.begin(), lines.end() - static_cast<std::ptrdiff_t>(count));
    std::string text;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        text += i == 0 ? ": " : " / ";
        text += lines[i];
    }
    return text;
}

namespace {

// Pointers to the strings' characters, null-terminated, as posix_spawn takes them.
std::vector<char*> cStrings(std::vector<std::string>& strings) {
    std::vector<char*> out;
    for (std::string& text : strings) out.push_back(text.data());
    out.push_back(nullptr);
    return out;
}

// Starts the command, its stdout and stderr into the pipes' write ends; stdin is /dev/null and
// the process group its own unless it reads the terminal (ownGroup). Returns posix_spawnp's error.
int spawnChild(const ChildProcessRequest& request, bool ownGroup, const Pipe& out, const Pipe& err, pid_t& pid) {
    std::vector<std::string> envStrings = childEnvironment(request);
    std::vector<char*> envp = cStrings(envStrings);
    std::vector<std::string> argStrings = request.argv;
    std::vector<char*> argv = cStrings(argStrings);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, out.write(), STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err.write(), STDERR_FILENO);
    if (!request.inheritStdin) posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    if (ownGroup) {
        posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        posix_spawnattr_setpgroup(&attributes, 0);
    }
    const int spawned = posix_spawnp(&pid, argStrings.front().c_str(), &actions, &attributes, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    return spawned;
}

// One run's reason to stop the child, once it has one: a cancel, the deadline, or a failure while
// reading its output. The first reason found is the outcome; its message goes into the result.
struct ChildRun {
    const ChildProcessRequest& request;
    ChildProcessResult& result;
    std::chrono::steady_clock::time_point deadline;
    std::optional<ChildProcessResult::Outcome> failed;

    void fail(ChildProcessResult::Outcome outcome, std::string why) {
        failed = outcome;
        result.failure = std::move(why);
    }
    bool mustStop() {
        if (stopRequested(request))
            fail(ChildProcessResult::Outcome::Cancelled, "cancelled");
        else if (std::chrono::steady_clock::now() >= deadline)
            fail(ChildProcessResult::Outcome::TimedOut, "no answer after " + describeDuration(request.timeout));
        return failed.has_value();
    }
};

// The child's stderr: its first kMaxStderr bytes kept in the result, and each line handed to
// onStderrLine as soon as it is complete.
class StderrReader {
public:
    StderrReader(const ChildProcessRequest& request, ChildProcessResult& result)
        : m_request(request), m_result(result) {}

    void take(std::string_view chunk) {
        if (m_result.err.size() < kMaxStderr) m_result.err.append(chunk.substr(0, kMaxStderr - m_result.err.size()));
        m_pending.append(chunk);
        for (auto nl = m_pending.find('\n'); nl != std::string::npos; nl = m_pending.find('\n')) {
            takeLine(m_pending.substr(0, nl));
            m_pending.erase(0, nl + 1);
        }
        // A line without end is handed on in pieces, not gathered without bound.
        if (m_pending.size() > kMaxStderr) takeLine(std::exchange(m_pending, std::string()));
    }
    // The last line, when the output ended without a line end.
    void finish() {
        if (!m_pending.empty()) takeLine(std::move(m_pending));
    }

private:
    void takeLine(std::string line) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (m_request.onStderrLine) m_request.onStderrLine(line);
    }

    const ChildProcessRequest& m_request;
    ChildProcessResult& m_result;
    std::string m_pending;
};

// Reads what stdout has; false once it is closed. What would pass the limit is not kept, so
// memory stays within it: the run fails instead.
bool readStdout(int fd, std::vector<char>& buffer, ChildRun& run) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n > 0) {
        const ChildProcessRequest& request = run.request;
        if (static_cast<std::size_t>(n) > request.maxStdout - run.result.out.size()) {
            run.fail(ChildProcessResult::Outcome::OutputTooLarge,
                     "printed more than the limit of " + describeByteSize(request.maxStdout) + " and was stopped" +
                         (request.limitVariable.empty() ? std::string()
                                                        : raiseLimitHint(request.limitVariable, request.maxStdout)));
            return true;
        }
        run.result.out.append(buffer.data(), static_cast<std::size_t>(n));
        return true;
    }
    return n < 0 && errno == EINTR; // interrupted: still open
}

// Reads what stderr has; false once it is closed.
bool readStderr(int fd, std::vector<char>& buffer, StderrReader& stderrReader) {
    const ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n > 0) {
        stderrReader.take(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
        return true;
    }
    return n < 0 && errno == EINTR; // interrupted: still open
}

// Reads both outputs as they come until both are closed or the run must stop.
void readOutputs(const Pipe& out, const Pipe& err, ChildRun& run, StderrReader& stderrReader) {
    bool outOpen = true, errOpen = true;
    std::vector<char> buffer(64 * 1024);
    while ((outOpen || errOpen) && !run.mustStop()) {
        pollfd fds[2] = {{outOpen ? out.read() : -1, POLLIN, 0}, {errOpen ? err.read() : -1, POLLIN, 0}};
        if (::poll(fds, 2, 100) < 0 && errno != EINTR) {
            run.fail(ChildProcessResult::Outcome::CannotRun, std::string("poll failed: ") + std::strerror(errno));
            break;
        }
        if (outOpen && (fds[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            outOpen = readStdout(out.read(), buffer, run);
            if (run.failed) break;
        }
        if (errOpen && (fds[1].revents & (POLLIN | POLLHUP | POLLERR)))
            errOpen = readStderr(err.read(), buffer, stderrReader);
    }
}

} // namespace

ChildProcessResult runChildProcess(const ChildProcessRequest& request) {
    ChildProcessResult result;
    if (request.argv.empty()) {
        result.failure = "no command";
        return result;
    }
    Pipe out, err;
    if (!out.ok() || !err.ok()) {
        result.failure = std::string("cannot create pipes: ") + std::strerror(errno);
        return result;
    }
    // A process that reads the terminal must stay in its foreground group.
    const bool ownGroup = !request.inheritStdin;
    pid_t pid = 0;
    const int spawned = spawnChild(request, ownGroup, out, err, pid);
    if (spawned != 0) {
        result.outcome =
            spawned == ENOENT ? ChildProcessResult::Outcome::NotFound : ChildProcessResult::Outcome::CannotRun;
        result.failure = std::strerror(spawned);
        return result;
    }
    out.closeWrite();
    err.closeWrite();

    ChildRun run{request, result, std::chrono::steady_clock::now() + request.timeout, std::nullopt};
    StderrReader stderrReader(request, result);
    readOutputs(out, err, run, stderrReader);
    stderrReader.finish();
    // Its output closed is not its end: a program may close it and hang on. The deadline and a
    // cancel still apply while it is waited for.
    int status = 0;
    while (!run.failed) {
        const pid_t done = ::waitpid(pid, &status, WNOHANG);
        if (done == pid || (done < 0 && errno != EINTR)) break;
        if (!run.mustStop()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (run.failed) {
        ::kill(ownGroup ? -pid : pid, SIGKILL);
        while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        result.outcome = *run.failed;
        return result;
    }
    if (WIFSIGNALED(status)) {
        result.outcome = ChildProcessResult::Outcome::Signalled;
        result.signal = WTERMSIG(status);
    } else {
        result.outcome = ChildProcessResult::Outcome::Exited;
        result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    }
    return result;
}

} // namespace topodeck
