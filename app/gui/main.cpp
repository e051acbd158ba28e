#include "app/gui/command_line.h"
#include "app/gui/launch_actions.h"
#include "app/gui/main_window.h"
#include "app/gui/screenshot_capture.h"
#include "session/kubeconfig_catalog.h"
#include "translations/translations.h"
#include "views/chrome/app_settings.h"

#include <QApplication>
#include <QFont>
#include <QFontDatabase>
#include <QIcon>
#include <QTextStream>

#include <spdlog/cfg/env.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace {

bool haveDisplay() {
    return qEnvironmentVariableIsSet("QT_QPA_PLATFORM") || !qEnvironmentVariableIsEmpty("DISPLAY") ||
           !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY");
}

// With no display there is no window to open: show the same cluster the way `topodeckctl show`
// does, by running the topodeckctl installed beside this program.
int showInTerminal(const topodeck::LaunchOptions& options) {
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    const std::string ctl = (error ? std::filesystem::path(".") : self.parent_path()) / "topodeckctl";
    std::vector<std::string> args{ctl, "show"};
    if (options.slurm) {
        const topodeck::SlurmTarget& slurm = *options.slurm;
        args.insert(args.end(), {"--slurm", slurm.kind == topodeck::SlurmTarget::Kind::Cli ? "cli" : slurm.url});
        for (const auto& [flag, value] :
             {std::pair{"--slurm-token-file", &slurm.tokenFile}, std::pair{"--slurm-user", &slurm.userName},
              std::pair{"--slurm-api", &slurm.apiVersion}, std::pair{"--slurm-conf", &slurm.slurmConf},
              std::pair{"--slurm-topology", &slurm.topologyFile}})
            if (!value->empty()) args.insert(args.end(), {flag, *value});
        args.insert(args.end(), {"--poll", QString::number(double(options.slurmPoll.count()) / 1000.0).toStdString()});
    } else if (options.inCluster) {
        args.push_back("--in-cluster");
    } else if (options.live()) {
        QString context = options.contexts.value(0);
        // topodeckctl wants the context named; the current one of the usual kubeconfig, as kubectl picks it.
        if (context.isEmpty() && options.kubeconfig.isEmpty())
            context = topodeck::KubeconfigCatalog::read(QString()).currentContext;
        if (!context.isEmpty()) args.insert(args.end(), {"--context", context.toStdString()});
        if (!options.kubeconfig.isEmpty() || context.isEmpty())
            args.insert(args.end(), {"--kubeconfig", options.kubeconfig.toStdString()});
    } else if (!options.file.isEmpty()) {
        args.insert(args.end(), {"-f", options.file.toStdString()});
        if (!options.slurmTopologyFile.isEmpty())
            args.insert(args.end(), {"--slurm-topology", options.slurmTopologyFile.toStdString()});
    } else {
        args.insert(args.end(), {"--demo", options.demo.toStdString()});
    }
    if (!options.levels.isEmpty())
        args.insert(args.end(), {"--levels", options.levels.join(QLatin1Char(',')).toStdString()});
    if (!options.topology.isEmpty()) args.insert(args.end(), {"--topology", options.topology.toStdString()});
    if (!options.gpuResources.isEmpty())
        args.insert(args.end(), {"--gpu-resources", options.gpuResources.toStdString()});
    if (!options.gpuClasses.isEmpty()) args.insert(args.end(), {"--gpu-classes", options.gpuClasses.toStdString()});
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    QTextStream(stderr)
        << "topodeck: no display (DISPLAY and WAYLAND_DISPLAY are unset); showing the cluster in the terminal instead"
        << Qt::endl;
    execv(ctl.c_str(), argv.data());
    QTextStream(stderr) << "topodeck: cannot run " << QString::fromStdString(ctl) << ": "
                        << QString::fromLocal8Bit(std::strerror(errno)) << Qt::endl;
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    // Diagnostics on stderr: warnings by default, more with SPDLOG_LEVEL=info (or debug).
    spdlog::set_default_logger(spdlog::stderr_color_mt("topodeck"));
    spdlog::set_level(spdlog::level::warn);
    spdlog::cfg::load_env_levels();

    QApplication::setApplicationName(QStringLiteral("topodeck"));
    QApplication::setApplicationVersion(QStringLiteral(TOPODECK_VERSION));
    QApplication::setOrganizationDomain(QStringLiteral("topodeck.io"));
    topodeck::AppSettings::useIniFormat();

    // Parsed before QApplication exists, so that --help and mistakes need no display.
    topodeck::CommandLine commandLine;
    topodeck::CommandLine::Outcome outcome;
    {
        QCoreApplication parsing(argc, argv);
        outcome = commandLine.parse(QCoreApplication::arguments());
    }
    QTextStream out(stdout);
    QTextStream err(stderr);
    switch (outcome) {
    case topodeck::CommandLine::Outcome::Help:
    case topodeck::CommandLine::Outcome::Version:
        out << commandLine.message() << Qt::endl;
        return 0;
    case topodeck::CommandLine::Outcome::Error:
        err << "topodeck: " << commandLine.message() << Qt::endl << "Try 'topodeck --help'." << Qt::endl;
        return 2;
    case topodeck::CommandLine::Outcome::Run:
        break;
    }
    const topodeck::LaunchOptions& options = commandLine.options();
    if (options.screenshot.isEmpty() && !haveDisplay()) return showInTerminal(options);

    // A screenshot needs no display: use the offscreen platform unless the user chose one.
    if (!options.screenshot.isEmpty() && !qEnvironmentVariableIsSet("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    Q_INIT_RESOURCE(resources); // the qrc lives in a static library
    QApplication app(argc, argv);
    if (!topodeck::installTranslations(app)) spdlog::warn("the English catalogue is missing: counts read \"(s)\"");
    QApplication::setDesktopFileName(QStringLiteral("topodeck"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/topodeck/icons/topodeck.svg")));
    QApplication::setStyle(QStringLiteral("Fusion"));
    if (QFontDatabase::families().contains(QStringLiteral("Noto Sans")))
        QApplication::setFont(QFont(QStringLiteral("Noto Sans"), 10));

    topodeck::MainWindow window;
    if (!options.screenshot.isEmpty()) {
        topodeck::ScreenshotCapture* capture = topodeck::LaunchActions::apply(window, options);
        QObject::connect(capture, &topodeck::ScreenshotCapture::finished, &app, [&](int code, const QString& message) {
            if (code != 0) err << "topodeck: " << message << Qt::endl;
            QApplication::exit(code);
        });
        window.open(options);
        return QApplication::exec();
    }

    window.restoreLayout();
    topodeck::LaunchActions::apply(window, options);
    window.open(options);
    window.show();
    // Every further cluster in a window of its own.
    for (qsizetype i = 1; i < options.contexts.size(); ++i) {
        topodeck::LaunchOptions one = options;
        one.contexts = QStringList{options.contexts[i]};
        one.select.clear();
        auto* more = new topodeck::MainWindow;
        more->setAttribute(Qt::WA_DeleteOnClose);
        more->open(one);
        more->show();
    }
    return QApplication::exec();
}
