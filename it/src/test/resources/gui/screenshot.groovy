// Licensed under the Apache License, Version 2.0.
// Run by JMeter's GUI at start-up (jsr223.init.file): waits for the plan to load, selects the sampler named by
// property stampede.gui.select, saves a PNG of the window and the panel's labels, then exits JMeter.
import java.awt.image.BufferedImage
import javax.imageio.ImageIO
import javax.swing.JLabel
import javax.swing.SwingUtilities
import javax.swing.tree.TreePath
import org.apache.jmeter.gui.GuiPackage
import org.apache.jmeter.util.JMeterUtils

def select = JMeterUtils.getProperty('stampede.gui.select')
def png = new File(JMeterUtils.getProperty('stampede.gui.png'))
def labelsFile = new File(JMeterUtils.getProperty('stampede.gui.labels'))

Thread.start('stampede-gui-smoke') {
    def deadline = System.currentTimeMillis() + 90_000
    def node = null
    while (node == null && System.currentTimeMillis() < deadline) {
        Thread.sleep(500)
        def gui = GuiPackage.getInstance()
        if (gui == null || gui.getMainFrame() == null) continue
        def root = gui.getTreeModel().getRoot()
        node = root.depthFirstEnumeration().toList().find { it.getTestElement()?.getName() == select }
    }
    if (node == null) {
        labelsFile.text = "NOT FOUND: " + select + "\n"
        System.exit(3)
    }
    SwingUtilities.invokeAndWait {
        def gui = GuiPackage.getInstance()
        def tree = gui.getTreeListener().getJTree()
        def path = new TreePath(node.getPath())
        tree.expandPath(path.getParentPath())
        tree.setSelectionPath(path)
    }
    Thread.sleep(2000)
    SwingUtilities.invokeAndWait {
        def gui = GuiPackage.getInstance()
        def frame = gui.getMainFrame()
        def image = new BufferedImage(frame.getWidth(), frame.getHeight(), BufferedImage.TYPE_INT_RGB)
        def g = image.createGraphics()
        frame.paint(g)
        g.dispose()
        ImageIO.write(image, 'png', png)
        def labels = []
        def collect
        collect = { c ->
            if (c instanceof JLabel && c.isShowing()) labels << c.getText()
            if (c instanceof javax.swing.JComponent && c.getBorder() instanceof javax.swing.border.TitledBorder) {
                labels << c.getBorder().getTitle()
            }
            if (c.hasProperty('components')) c.getComponents().each { collect(it) }
        }
        collect(gui.getCurrentGui())
        labelsFile.text = "panel=" + gui.getCurrentGui().getClass().getName() + "\n" +
                "label=" + gui.getCurrentGui().getStaticLabel() + "\n" + labels.join("\n") + "\n"
    }
    System.exit(0)
}
