#pragma once

// Helpers shared by the net tests.

#include <QByteArray>
#include <QTemporaryDir>
#include <QtGlobal>

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

// Saves an environment variable and puts it back when the scope ends.
class EnvGuard {
public:
    explicit EnvGuard(const char* name) : m_name(name), m_had(qEnvironmentVariableIsSet(name)), m_value(qgetenv(name)) {}
    ~EnvGuard() {
        if (m_had)
            qputenv(m_name, m_value);
        else
            qunsetenv(m_name);
    }
    EnvGuard(const EnvGuard&) = delete;
    EnvGuard& operator=(const EnvGuard&) = delete;

private:
    const char* m_name;
    bool m_had;
    QByteArray m_value;
};

// Writes `content` to dir/relative (creating directories) and returns the absolute path.
inline std::string writeFile(const QTemporaryDir& dir, const std::string& relative, std::string_view content) {
    const std::filesystem::path file = std::filesystem::path(dir.path().toStdString()) / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << content;
    return file.string();
}

inline std::string pathIn(const QTemporaryDir& dir, const std::string& relative) {
    return (std::filesystem::path(dir.path().toStdString()) / relative).lexically_normal().string();
}
