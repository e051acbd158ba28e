#pragma once

#include "session/kubeconfig_catalog.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

namespace topodeck {

// What the person chose in the connect dialog.
struct KubeChoice {
    QString context; // empty with inCluster
    QString kubeconfig;
    bool inCluster = false;
    bool newWindow = false;
};

// Lists the contexts of a kubeconfig (read off the GUI thread, kubectl's rules for finding it)
// with their cluster, server and way of logging in, the current one preselected.
class ConnectDialog : public QDialog {
    Q_OBJECT
public:
    explicit ConnectDialog(QWidget* parent = nullptr);

    // The kubeconfig to list (empty: KUBECONFIG or ~/.kube/config) and whether to offer a new
    // window by default (when the window already shows a cluster).
    void start(const QString& kubeconfig, bool preferNewWindow);
    KubeChoice choice() const;

    QTreeWidget* contextList() const { return m_contexts; }

Q_SIGNALS:
    // The listing is shown (for tests and screenshots).
    void listed();

private:
    void showListing(const KubeconfigListing& listing);
    void browse();
    void updateButtons();

    KubeconfigCatalog m_catalog;
    QLineEdit* m_path = nullptr;
    QTreeWidget* m_contexts = nullptr;
    QLabel* m_message = nullptr;
    QCheckBox* m_newWindow = nullptr;
    QPushButton* m_connect = nullptr;
};

} // namespace topodeck
