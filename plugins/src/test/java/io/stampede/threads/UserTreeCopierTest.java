/*
 * Licensed under the Apache License, Version 2.0 (the "License"); you may not use this file except in
 * compliance with the License. You may obtain a copy of the License at
 * https://www.apache.org/licenses/LICENSE-2.0
 */
package io.stampede.threads;

import org.apache.jmeter.control.LoopController;
import org.apache.jmeter.engine.TreeCloner;
import org.apache.jmeter.engine.util.NoThreadClone;
import org.apache.jmeter.testelement.AbstractTestElement;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jmeter.threads.AbstractThreadGroup;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.HashTreeTraverser;
import org.apache.jorphan.collections.ListedHashTree;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UserTreeCopierTest {
    /** An element each user gets a copy of. */
    public static class Owned extends AbstractTestElement {
        private static final long serialVersionUID = 1L;
    }

    /** An element all users share, as JMeter shares its listeners. */
    public static class Shared extends AbstractTestElement implements NoThreadClone {
        private static final long serialVersionUID = 1L;
    }

    private static <T extends TestElement> T named(T e, String name) {
        e.setName(name);
        e.setProperty("p", name + "-value");
        return e;
    }

    /** group → [once → [login → [x1, x2]], listener, step → [x3], think → [timer]], listener again under think. */
    private static ListedHashTree template(Shared listener) {
        ListedHashTree t = new ListedHashTree();
        Owned group = named(new Owned(), "group");
        HashTree g = t.add(group);
        HashTree once = g.add(named(new Owned(), "once"));
        HashTree login = once.add(named(new Owned(), "login"));
        login.add(named(new Owned(), "x1"));
        login.add(named(new Owned(), "x2"));
        g.add(listener);
        g.add(named(new Owned(), "step")).add(named(new Owned(), "x3"));
        HashTree think = g.add(named(new Owned(), "think"));
        think.add(named(new Owned(), "timer"));
        think.add(listener);
        return t;
    }

    /** The walk JMeter's compiler makes: every element with its depth, in order, and whether it is the template's. */
    private static List<String> walk(HashTree tree, Map<Object, Boolean> templateElements) {
        List<String> out = new ArrayList<>();
        tree.traverse(new HashTreeTraverser() {
            private int depth;

            @Override
            public void addNode(Object node, HashTree subTree) {
                TestElement e = (TestElement) node;
                out.add(depth++ + " " + e.getName() + " " + e.getPropertyAsString("p") + " "
                        + (templateElements.containsKey(node) ? "shared" : "copy") + " " + subTree.list().size());
            }

            @Override
            public void subtractNode() {
                depth--;
            }

            @Override
            public void processPath() {
                out.add("path end");
            }
        });
        return out;
    }

    private static Map<Object, Boolean> elementsOf(HashTree tree) {
        Map<Object, Boolean> all = new IdentityHashMap<>();
        tree.traverse(new HashTreeTraverser() {
            @Override
            public void addNode(Object node, HashTree subTree) {
                all.put(node, true);
            }

            @Override
            public void subtractNode() {
            }

            @Override
            public void processPath() {
            }
        });
        return all;
    }

    @Test
    void aUsersCopyIsTheTreeJMeterWouldCloneForItInTheSameOrder() {
        Shared listener = named(new Shared(), "listener");
        ListedHashTree template = template(listener);
        TreeCloner jmeter = new TreeCloner(true);
        template.traverse(jmeter);
        ListedHashTree theirs = jmeter.getClonedTree();
        HashTree ours = new UserTreeCopier().copy(template);

        Map<Object, Boolean> templateElements = elementsOf(template);
        List<String> expected = walk(theirs, templateElements);
        assertEquals(expected, walk(ours, templateElements));
        assertTrue(expected.contains("1 listener listener-value shared 0"), expected.toString());
        assertTrue(expected.contains("2 login login-value copy 2"), expected.toString());
        assertEquals(1, ours.list().size());
        assertSame(listener, ours.getTree(ours.getArray()[0]).getArray()[1], "NoThreadClone elements are shared");
        assertNotSame(template.getArray()[0], ours.getArray()[0], "other elements are the user's own");
    }

    @Test
    void twoUsersOwnDifferentCopies() {
        ListedHashTree template = template(named(new Shared(), "listener"));
        Object first = new UserTreeCopier().copy(template).getArray()[0];
        Object second = new UserTreeCopier().copy(template).getArray()[0];
        assertNotSame(first, second);
        assertEquals(((TestElement) first).getName(), ((TestElement) second).getName());
    }

    @Test
    void aUsersRootIsTheGroupWithItsNameAndItsOwnLoopControllerOnly() {
        VirtualUserThreadGroup group = new VirtualUserThreadGroup();
        group.setName("users");
        group.setNumThreads(5);
        group.setRampUp("10");
        group.setLoops("3");
        group.setRunningVersion(true);
        ListedHashTree template = new ListedHashTree();
        template.add(group).add(named(new Owned(), "step"));

        HashTree copy = new UserTreeCopier().copy(template);
        VirtualUserThreadGroup root = (VirtualUserThreadGroup) copy.getArray()[0];
        assertNotSame(group, root);
        assertEquals("users", root.getName());
        assertNotSame(group.getSamplerController(), root.getSamplerController(), "the loop's count is the user's");
        assertEquals("3", ((TestElement) root.getSamplerController()).getPropertyAsString(LoopController.LOOPS));
        assertTrue(root.isRunningVersion());
        assertEquals("", root.getPropertyAsString(AbstractThreadGroup.NUM_THREADS), "settings stay on the group");
        assertEquals("step", ((TestElement) copy.getTree(root).getArray()[0]).getName());
    }

    @Test
    void usersShareTheEmptySubtreesOfLeavesAndNoUserCanAddUnderOne() {
        ListedHashTree template = template(named(new Shared(), "listener"));
        UserTreeCopier copier = new UserTreeCopier();
        HashTree first = copier.copy(template);
        HashTree second = copier.copy(template);
        HashTree firstLeaf = subtreeOf(first, "x1");
        assertSame(firstLeaf, subtreeOf(first, "x3"), "one empty subtree for every leaf of a user");
        assertSame(firstLeaf, subtreeOf(second, "timer"), "and of every user");
        assertNotSame(subtreeOf(first, "login"), subtreeOf(second, "login"), "a node with children is the user's");

        List<String> secondBefore = walk(second, elementsOf(template));
        Owned added = named(new Owned(), "added by one user");
        UnsupportedOperationException refused = assertThrows(UnsupportedOperationException.class,
                () -> firstLeaf.add(added));
        assertTrue(refused.getMessage().contains("all users share"), refused.getMessage());
        List<TestElement> pathToALeaf = List.of(elementNamed(first, "group"), elementNamed(first, "once"),
                elementNamed(first, "login"), elementNamed(first, "x2"));
        assertThrows(UnsupportedOperationException.class, () -> first.add(pathToALeaf, added),
                "a path through a leaf is refused too");
        assertThrows(UnsupportedOperationException.class, () -> firstLeaf.list().add(added));
        assertEquals(0, firstLeaf.list().size());
        assertEquals(secondBefore, walk(second, elementsOf(template)), "no other user's tree changed");
        assertTrue(((HashTree) firstLeaf.clone()).add(added) != null, "a clone of the leaf is an ordinary tree");
    }

    private static TestElement elementNamed(HashTree tree, String name) {
        for (Object key : elementsOf(tree).keySet()) {
            if (((TestElement) key).getName().equals(name)) {
                return (TestElement) key;
            }
        }
        throw new AssertionError("no " + name);
    }

    /** The subtree under the element named {@code name}, wherever it is. */
    private static HashTree subtreeOf(HashTree tree, String name) {
        TestElement e = elementNamed(tree, name);
        HashTree found = tree.search(e);
        assertTrue(found != null, name);
        return found;
    }

    @Test
    void aUsersRootKeepsItsPropertiesInOneMapWithoutALockAndWritesOnlyItsOwn() throws Exception {
        VirtualUserThreadGroup group = new VirtualUserThreadGroup();
        group.setName("users");
        group.setLoops("3");
        group.setRunningVersion(true);
        ListedHashTree template = new ListedHashTree();
        template.add(group).add(named(new Owned(), "step"));
        UserTreeCopier copier = new UserTreeCopier();
        VirtualUserThreadGroup first = (VirtualUserThreadGroup) copier.copy(template).getArray()[0];
        VirtualUserThreadGroup second = (VirtualUserThreadGroup) copier.copy(template).getArray()[0];

        Object map = field(first, "propMap");
        assertInstanceOf(CompactPropertyMap.class, map);
        assertSame(map, field(first, "propMapConcurrent"), "one map for both of JMeter's fields");
        assertNull(field(first, "lock"), "only the user's thread reaches its root");
        assertNotSame(map, field(second, "propMap"));

        first.setProperty(TestElement.NAME, "renamed by a script");
        assertEquals("renamed by a script", first.getName());
        assertEquals("users", second.getName());
        assertEquals("users", group.getName());
        first.recoverRunningVersion();
        assertEquals("users", first.getName(), "the running version comes back after the sample");
        first.setProperty("added", "x");
        assertEquals("x", first.getPropertyAsString("added"));
        first.removeProperty("added");
        assertEquals("", first.getPropertyAsString("added"));
        assertEquals("3", ((TestElement) first.getSamplerController()).getPropertyAsString(LoopController.LOOPS));
    }

    private static Object field(Object element, String name) throws ReflectiveOperationException {
        java.lang.reflect.Field f = AbstractTestElement.class.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(element);
    }

    @Test
    void editingKeepsTheOrderListedHashTreeKeeps() {
        ListedHashTree listed = new ListedHashTree();
        CompactListedTree compact = new CompactListedTree(2);
        Object[] k = {"k0", "k1", "k2", "k3", "k4", "k5"};
        for (HashTree t : List.of(listed, compact)) {
            t.add(k[0]);
            t.add(k[1]);
            t.add(k[2]);
            t.add(k[1]);
            t.set(k[3], new Object[] {"a", "b"});
            t.add(k[0], k[4]);
            t.add(Arrays.asList(k[2], "c"), "d");
            t.remove(k[1]);
            t.replaceKey(k[0], k[5]);
        }
        assertEquals(List.copyOf(listed.list()), List.copyOf(compact.list()));
        assertEquals(Arrays.asList(listed.getArray()), Arrays.asList(compact.getArray()));
        for (Object key : listed.list()) {
            assertEquals(List.copyOf(listed.list(key)), List.copyOf(compact.list(key)), "children of " + key);
        }
        assertEquals(List.of("c"), List.copyOf(compact.list(k[2])));
        assertEquals(List.of("d"), List.copyOf(compact.getTree(k[2]).list("c")));
        assertTrue(compact.getTree(k[2]) instanceof CompactListedTree, "subtrees are compact too");
        HashTree copy = (HashTree) compact.clone();
        assertEquals(List.copyOf(compact.list()), List.copyOf(copy.list()));
        assertEquals(compact, copy);
        compact.clear();
        assertEquals(0, compact.list().size());
    }
}
