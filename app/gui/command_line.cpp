#include "app/gui/command_line.h"

#include "core/placement/plan_query.h"
#include "views/what_if_panel.h"

#include <QCommandLineParser>
#include <QCoreApplication>

#include <cmath>

namespace topodeck {

namespace {

// The flags of a live Slurm cluster, named and worded as topodeckctl's.
struct SlurmFlags {
    QCommandLineOption slurm{
        QStringLiteral("slurm"),
        QCoreApplication::translate("CommandLine",
                                    "Connect to a live Slurm cluster: slurmrestd (http://host:6820, https://..., "
                                    "unix:/path.sock) or this machine's Slurm commands (cli)."),
        QStringLiteral("URL|cli")};
    QCommandLineOption tokenFile{
        QStringLiteral("slurm-token-file"),
        QCoreApplication::translate("CommandLine",
                                    "slurmrestd: the JWT (scontrol token) in this file (default $SLURM_JWT)."),
        QStringLiteral("file")};
    QCommandLineOption user{
        QStringLiteral("slurm-user"),
        QCoreApplication::translate("CommandLine", "slurmrestd: X-SLURM-USER-NAME (default: the token's user)."),
        QStringLiteral("name")};
    QCommandLineOption api{
        QStringLiteral("slurm-api"),
        QCoreApplication::translate("CommandLine",
                                    "slurmrestd: the REST API version, e.g. v0.0.38 (default: the newest offered)."),
        QStringLiteral("version")};
    QCommandLineOption conf{QStringLiteral("slurm-conf"),
                            QCoreApplication::translate("CommandLine", "Slurm CLI: SLURM_CONF for the commands."),
                            QStringLiteral("file")};
    QCommandLineOption topology{
        QStringLiteral("slurm-topology"),
        QCoreApplication::translate("CommandLine",
                                    "topology.conf or topology.yaml (slurmrestd does not serve the topology; the "
                                    "CLI asks scontrol show topology without it)."),
        QStringLiteral("file")};
    QCommandLineOption poll{QStringLiteral("poll"),
                            QCoreApplication::translate("CommandLine", "Slurm: how often to poll (default 5)."),
                            QStringLiteral("seconds")};

    QList<QCommandLineOption> all() const { return {slurm, tokenFile, user, api, conf, topology, poll}; }
    // Sets options.slurm and options.slurmPoll from the flags; the error, or an empty string.
    QString read(const QCommandLineParser& parser, LaunchOptions& options) const;
};

QString SlurmFlags::read(const QCommandLineParser& parser, LaunchOptions& options) const {
    if (!parser.isSet(slurm)) {
        // Beside a snapshot file, a topology file is the hierarchy the node list lacks.
        if (parser.isSet(topology)) {
            if (parser.value(topology).trimmed().isEmpty())
                return QCoreApplication::translate("CommandLine", "--slurm-topology needs a file");
            options.slurmTopologyFile = parser.value(topology);
        }
        for (const QCommandLineOption* flag : {&tokenFile, &user, &api, &conf, &poll})
            if (parser.isSet(*flag))
                return QCoreApplication::translate("CommandLine", "--%1 only applies to --slurm")
                    .arg(flag->names().constFirst());
        return QString();
    }
    if (parser.values(slurm).size() > 1) return QCoreApplication::translate("CommandLine", "--slurm takes one cluster");
    Result<SlurmTarget> target = SlurmTarget::fromArgument(parser.value(slurm).trimmed().toStdString());
    if (!target) return QString::fromStdString(target.error().message);

    enum class AppliesTo { Rest, Cli, Both };
    struct Refinement {
        const QCommandLineOption* flag;
        std::string* field;
        AppliesTo appliesTo;
    };
    const bool rest = target->kind == SlurmTarget::Kind::Rest;
    for (const Refinement& refinement :
         {Refinement{&tokenFile, &target->tokenFile, AppliesTo::Rest},
          Refinement{&user, &target->userName, AppliesTo::Rest}, Refinement{&api, &target->apiVersion, AppliesTo::Rest},
          Refinement{&conf, &target->slurmConf, AppliesTo::Cli},
          Refinement{&topology, &target->topologyFile, AppliesTo::Both}}) {
        if (!parser.isSet(*refinement.flag)) continue;
        const QString name = refinement.flag->names().constFirst();
        const QString value = parser.value(*refinement.flag);
        if (value.trimmed().isEmpty())
            return QCoreApplication::translate("CommandLine", "--%1 needs a value").arg(name);
        if (refinement.appliesTo == AppliesTo::Rest && !rest)
            return QCoreApplication::translate("CommandLine", "--%1 applies to slurmrestd (--slurm URL), not the CLI")
                .arg(name);
        if (refinement.appliesTo == AppliesTo::Cli && rest)
            return QCoreApplication::translate("CommandLine", "--%1 applies to the Slurm CLI (--slurm cli)").arg(name);
        *refinement.field = value.toStdString();
    }

    if (parser.isSet(poll)) {
        QString text = parser.value(poll).trimmed();
        // A trailing "s" is accepted, as people write durations that way ("--poll 2s").
        if (text.endsWith(QLatin1Char('s'))) text.chop(1);
        bool ok = false;
        const double seconds = text.toDouble(&ok);
        if (!ok || !std::isfinite(seconds) || seconds < 0 || seconds > 86400)
            return QCoreApplication::translate("CommandLine",
                                               "--poll wants seconds between 0 and 86400, e.g. 1 or 0.5, not \"%1\"")
                .arg(parser.value(poll));
        if (seconds < 0.1) return QCoreApplication::translate("CommandLine", "--poll: at least 0.1 s");
        options.slurmPoll = std::chrono::milliseconds(std::llround(seconds * 1000));
    }
    options.slurm = std::move(*target);
    return QString();
}

} // namespace

CommandLine::Outcome CommandLine::parse(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("CommandLine", "Topology console for GPU clusters: see how the hierarchy of "
                                                   "your cluster is occupied, down to each GPU."));
    const QCommandLineOption helpOption = parser.addHelpOption();
    const QCommandLineOption versionOption = parser.addVersionOption();
    const QCommandLineOption demoOption(
        QStringLiteral("demo"),
        QCoreApplication::translate("CommandLine",
                                    "Open an embedded demo cluster: gb200, h100 or scale:N (default gb200)."),
        QStringLiteral("name"));
    const QCommandLineOption fileOption(
        {QStringLiteral("f"), QStringLiteral("file")},
        QCoreApplication::translate("CommandLine", "Open a snapshot file (kubectl get nodes,pods -A -o yaml|json)."),
        QStringLiteral("file"));
    const QCommandLineOption contextOption(
        QStringLiteral("context"),
        QCoreApplication::translate("CommandLine",
                                    "Connect to this kubeconfig context (repeat for several clusters, one window "
                                    "each)."),
        QStringLiteral("name"));
    const QCommandLineOption kubeconfigOption(
        QStringLiteral("kubeconfig"),
        QCoreApplication::translate("CommandLine",
                                    "Read only this kubeconfig (default: KUBECONFIG, else ~/.kube/config); with no "
                                    "--context, its current context."),
        QStringLiteral("file"));
    const QCommandLineOption inClusterOption(
        QStringLiteral("in-cluster"),
        QCoreApplication::translate("CommandLine", "Connect with this pod's service account."));
    const QCommandLineOption levelsOption(
        QStringLiteral("levels"),
        QCoreApplication::translate("CommandLine",
                                    "Node-label keys of the hierarchy, top level first, comma separated."),
        QStringLiteral("k1,k2"));
    const QCommandLineOption topologyOption(
        QStringLiteral("topology"),
        QCoreApplication::translate("CommandLine", "Use the Kueue or KAI Topology object with this name."),
        QStringLiteral("name"));
    const QCommandLineOption gpuResourcesOption(
        QStringLiteral("gpu-resources"),
        QCoreApplication::translate("CommandLine",
                                    "Resource names counted as GPUs, comma separated; a trailing * matches a prefix "
                                    "(default nvidia.com/gpu)."),
        QStringLiteral("names"));
    const QCommandLineOption simulateOption(
        QStringLiteral("simulate"),
        QCoreApplication::translate("CommandLine", "Run the demo simulator: gangs start and finish while you watch."));
    const QCommandLineOption screenshotOption(
        QStringLiteral("screenshot"),
        QCoreApplication::translate("CommandLine",
                                    "Render the window offscreen at 1600x1000 once the data is shown, write it to "
                                    "this PNG file and exit."),
        QStringLiteral("file.png"));
    const QCommandLineOption selectOption(
        QStringLiteral("select"),
        QCoreApplication::translate("CommandLine", "Select the domain or node at this path, e.g. su-1/rack-3."),
        QStringLiteral("path"));
    const QCommandLineOption filterOption(
        QStringLiteral("filter"),
        QCoreApplication::translate("CommandLine",
                                    "Filter the tree and dim the map by this Kubernetes label selector, e.g. "
                                    "\"rack in (rack-1-01,rack-1-02),!node.kubernetes.io/unschedulable\"."),
        QStringLiteral("selector"));
    const QCommandLineOption planOption(
        QStringLiteral("plan"),
        QCoreApplication::translate("CommandLine",
                                    "Open the planner with topodeckctl plan's flags in one string, e.g. \"--pods 16 "
                                    "--request nvidia.com/gpu=4 --required rack --compare\", run it and show the "
                                    "placement on the map."),
        QStringLiteral("flags"));
    const QCommandLineOption pageOption(
        QStringLiteral("page"),
        QCoreApplication::translate("CommandLine", "Raise this page: planner, gangs, charts, what-if or changes."),
        QStringLiteral("page"));
    const QCommandLineOption zoomOption(
        QStringLiteral("zoom"),
        QCoreApplication::translate("CommandLine", "Zoom the map to the domain at this path, e.g. su-1/rack-3."),
        QStringLiteral("path"));
    const QCommandLineOption mapColoursOption(
        QStringLiteral("map-colours"),
        QCoreApplication::translate("CommandLine",
                                    "Colour the map by occupancy (the default) or by free-capacity: how many pods "
                                    "of the planner's shape each domain could take now."),
        QStringLiteral("occupancy|free-capacity"));
    const QCommandLineOption whatIfOption(
        QStringLiteral("what-if"),
        QCoreApplication::translate(
            "CommandLine", "Apply these what-if steps once data is shown, in order, e.g. \"--fail su-1/rack-1-02 "
                           "--drain gb200-su1-r03-n01 --place '--pods 8 -r nvidia.com/gpu=4'\"."),
        QStringLiteral("steps"));
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QCoreApplication::translate("CommandLine", "A snapshot file to open (same as -f)."),
                                 QStringLiteral("[file]"));
    const SlurmFlags slurmFlags;
    parser.addOptions({demoOption, fileOption, contextOption, kubeconfigOption, inClusterOption});
    parser.addOptions(slurmFlags.all());
    parser.addOptions({levelsOption, topologyOption, gpuResourcesOption, simulateOption, screenshotOption, selectOption,
                       filterOption, planOption, pageOption, zoomOption, mapColoursOption, whatIfOption});

    if (!parser.parse(arguments)) {
        m_message = parser.errorText();
        return Outcome::Error;
    }
    if (parser.isSet(helpOption)) {
        m_message = parser.helpText();
        return Outcome::Help;
    }
    if (parser.isSet(versionOption)) {
        m_message = QCoreApplication::applicationName() % QLatin1Char(' ') % QCoreApplication::applicationVersion();
        return Outcome::Version;
    }
    // A bare file name opens that file, as desktop launchers pass it.
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1 || (positional.size() == 1 && parser.isSet(fileOption))) {
        m_message = QCoreApplication::translate("CommandLine", "unexpected argument '%1'").arg(positional.constLast());
        return Outcome::Error;
    }
    const bool fileGiven = parser.isSet(fileOption) || !positional.isEmpty();
    const bool liveGiven =
        parser.isSet(contextOption) || parser.isSet(kubeconfigOption) || parser.isSet(inClusterOption);
    const bool slurmGiven = parser.isSet(slurmFlags.slurm);
    if (int(parser.isSet(demoOption)) + int(fileGiven) + int(liveGiven) + int(slurmGiven) > 1) {
        m_message = QCoreApplication::translate(
            "CommandLine", "give one of --demo, --file or a live cluster (--context, --kubeconfig, "
                           "--in-cluster, --slurm)");
        return Outcome::Error;
    }
    if (parser.isSet(inClusterOption) && (parser.isSet(contextOption) || parser.isSet(kubeconfigOption))) {
        m_message = QCoreApplication::translate("CommandLine", "--in-cluster takes no --context or --kubeconfig");
        return Outcome::Error;
    }
    if (parser.isSet(levelsOption) && parser.isSet(topologyOption)) {
        m_message = QCoreApplication::translate("CommandLine", "give either --levels or --topology, not both");
        return Outcome::Error;
    }

    m_options = LaunchOptions();
    if (parser.isSet(demoOption)) m_options.demo = parser.value(demoOption).trimmed();
    if (fileGiven) {
        m_options.file = parser.isSet(fileOption) ? parser.value(fileOption) : positional.constFirst();
        m_options.demo.clear();
    }
    if (liveGiven) {
        m_options.demo.clear();
        m_options.inCluster = parser.isSet(inClusterOption);
        m_options.kubeconfig = parser.value(kubeconfigOption);
        for (const QString& context : parser.values(contextOption)) {
            if (context.trimmed().isEmpty()) {
                m_message = QCoreApplication::translate("CommandLine", "--context needs a name");
                return Outcome::Error;
            }
            m_options.contexts << context.trimmed();
        }
        if (parser.isSet(kubeconfigOption) && m_options.kubeconfig.isEmpty()) {
            m_message = QCoreApplication::translate("CommandLine", "--kubeconfig needs a file");
            return Outcome::Error;
        }
        if (m_options.contexts.isEmpty() && !m_options.inCluster) m_options.contexts << QString(); // the current one
    }
    m_message = slurmFlags.read(parser, m_options);
    if (!m_message.isEmpty()) return Outcome::Error;
    if (slurmGiven) m_options.demo.clear();
    if (!m_options.slurmTopologyFile.isEmpty() && m_options.file.isEmpty()) {
        m_message = QCoreApplication::translate("CommandLine",
                                                "--slurm-topology applies to --slurm or to a snapshot file (--file)");
        return Outcome::Error;
    }
    if (m_options.demo.isEmpty() && m_options.file.isEmpty() && !m_options.live()) {
        m_message = QCoreApplication::translate("CommandLine", "--demo needs a name (gb200, h100 or scale:N)");
        return Outcome::Error;
    }
    if (parser.isSet(levelsOption)) {
        for (const QString& key : parser.value(levelsOption).split(QLatin1Char(','))) {
            if (key.trimmed().isEmpty()) {
                m_message = QCoreApplication::translate("CommandLine", "--levels has an empty label key in '%1'")
                                .arg(parser.value(levelsOption));
                return Outcome::Error;
            }
            m_options.levels.append(key.trimmed());
        }
    }
    m_options.topology = parser.value(topologyOption).trimmed();
    m_options.gpuResources = parser.value(gpuResourcesOption).trimmed();
    m_options.simulate = parser.isSet(simulateOption);
    m_options.screenshot = parser.value(screenshotOption);
    if (parser.isSet(screenshotOption) && m_options.screenshot.isEmpty()) {
        m_message = QCoreApplication::translate("CommandLine", "--screenshot needs a file name");
        return Outcome::Error;
    }
    m_options.select = parser.value(selectOption).trimmed();
    m_options.filter = parser.value(filterOption);
    m_options.plan = parser.value(planOption).trimmed();
    m_options.page = parser.value(pageOption).trimmed();
    if (!m_options.page.isEmpty() && !QStringList{QStringLiteral("planner"), QStringLiteral("gangs"),
                                                  QStringLiteral("charts"), QStringLiteral("what-if"), QStringLiteral("changes")}
                                          .contains(m_options.page)) {
        m_message =
            QCoreApplication::translate("CommandLine", "--page wants planner, gangs, charts, what-if or changes, not \"%1\"")
                .arg(m_options.page);
        return Outcome::Error;
    }
    m_options.zoom = parser.value(zoomOption).trimmed();
    if (const QString colours = parser.value(mapColoursOption).trimmed(); !colours.isEmpty()) {
        if (colours != QLatin1String("occupancy") && colours != QLatin1String("free-capacity")) {
            m_message = QCoreApplication::translate("CommandLine",
                                                    "--map-colours wants occupancy or free-capacity, not \"%1\"")
                            .arg(colours);
            return Outcome::Error;
        }
        m_options.freeCapacity = colours == QLatin1String("free-capacity");
    }
    m_options.whatIf = parser.value(whatIfOption).trimmed();
    if (!m_options.whatIf.isEmpty()) {
        if (auto steps = parseWhatIfSteps(m_options.whatIf); !steps) {
            m_message = QCoreApplication::translate("CommandLine", "--what-if: %1")
                            .arg(QString::fromStdString(steps.error().message));
            return Outcome::Error;
        }
    }
    if (!m_options.plan.isEmpty()) {
        // The same parser the planner uses, so a bad flag is reported before any window opens.
        if (auto query = parsePlanQuery(m_options.plan.toStdString()); !query) {
            m_message = QCoreApplication::translate("CommandLine", "--plan: %1")
                            .arg(QString::fromStdString(query.error().message));
            return Outcome::Error;
        }
        if (m_options.page.isEmpty()) m_options.page = QStringLiteral("planner");
    }
    return Outcome::Run;
}

} // namespace topodeck
