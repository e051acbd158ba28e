#pragma once

#include "core/live/live_target.h"
#include "session/kubeconfig_catalog.h"

#include <QDialog>

#include <chrono>
#include <optional>

class QCheckBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QRadioButton;
class QTabWidget;
class QTreeWidget;
class QWidget;

namespace topodeck {

// What the person chose in the connect dialog: a Kubernetes context or a Slurm cluster.
struct ConnectChoice {
    enum class Kind { Kubernetes, Slurm };
    Kind kind = Kind::Kubernetes;
    // Kubernetes
    QString context; // empty with inCluster
    QString kubeconfig;
    bool inCluster = false;
    // Slurm
    SlurmTarget slurm;
    std::chrono::milliseconds slurmPoll{5000};

    bool newWindow = false;
};

// Two tabs. Kubernetes lists the contexts of a kubeconfig (read off the GUI thread, kubectl's
// rules for finding it) with their cluster, server and way of logging in, the current one
// preselected. Slurm takes slurmrestd's URL or this machine's Slurm commands; it only reads its
// fields (files are opened by the source, off the GUI thread), and says inline what is missing.
class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    // The kubeconfig to list (empty: KUBECONFIG or ~/.kube/config) and whether to offer a new
    // window by default (when the window already shows a cluster).
    void start(const QString& kubeconfig, bool preferNewWindow);
    // Fills the Slurm tab with this cluster (the one the window follows) and shows that tab.
    void showSlurm(const SlurmTarget& target, std::chrono::milliseconds poll);
    ConnectChoice choice() const;
    // Accepts only a complete choice (Enter or a double click cannot get past a disabled Connect).
    void accept() override;

    QTreeWidget* contextList() const { return m_contexts; }

Q_SIGNALS:
    // The listing is shown (for tests and screenshots).
    void listed();

private:
    QWidget* buildKubernetesTab();
    QWidget* buildSlurmTab();
    void showListing(const KubeconfigListing& listing);
    void browse();
    // Opens a file chooser for a Slurm field and puts the choice in it.
    void browseInto(QLineEdit* field, const QString& caption);
    // The Slurm tab's target; none while its input is incomplete or invalid, with the reason in
    // problem (left empty when there is nothing to say yet, e.g. no URL typed) and the backend's
    // own words in detail.
    std::optional<SlurmTarget> slurmTarget(QString* problem = nullptr, QString* detail = nullptr) const;
    // Connect is enabled only for a complete choice on the tab shown; the Slurm tab says why not.
    void updateButtons();

    KubeconfigCatalog m_catalog;
    QTabWidget* m_tabs = nullptr;
    QWidget* m_kubernetesTab = nullptr;
    QWidget* m_slurmTab = nullptr;

    QLineEdit* m_path = nullptr;
    QTreeWidget* m_contexts = nullptr;
    QLabel* m_message = nullptr;

    QRadioButton* m_useRest = nullptr;
    QRadioButton* m_useCommands = nullptr;
    QWidget* m_restFields = nullptr;
    QFormLayout* m_restForm = nullptr;
    QWidget* m_commandFields = nullptr;
    QLineEdit* m_restUrl = nullptr;
    QLineEdit* m_tokenFile = nullptr;
    QLineEdit* m_userName = nullptr;
    QLineEdit* m_slurmConf = nullptr;
    QLineEdit* m_topologyFile = nullptr;
    QDoubleSpinBox* m_poll = nullptr;
    QLabel* m_slurmProblem = nullptr;

    QCheckBox* m_newWindow = nullptr;
    QPushButton* m_connect = nullptr;
};

} // namespace topodeck
