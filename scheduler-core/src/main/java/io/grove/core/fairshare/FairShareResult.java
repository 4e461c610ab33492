package io.grove.core.fairshare;

import io.grove.core.pool.PoolTreeConfig;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The immutable result of one update: {@link #alerts()} about the configuration, every element's
 * shares ({@link #elements()}: the root first, then pools and operations depth-first), and the
 * {@link #integralState()} to feed into the next update.
 *
 * <p>An update of a large tree has hundreds of thousands of elements, so their
 * {@link ElementShares} are made when asked for, from the update's final numbers, which nothing
 * changes after the update.
 */
public final class FairShareResult {

    private final List<Alert> alerts;
    private final Map<String, IntegralState> integralState;
    private final ElementShares[] fixed;
    private final Element[] elements;
    private final Map<String, ElementShares> view = new ElementsView();
    private Map<String, Integer> index;

    private final Map<String, Double> historicUsage;

    FairShareResult(List<Alert> alerts, Element[] elements, ElementShares[] fixed, Map<String, IntegralState> integralState,
            Map<String, Double> historicUsage) {
        this.alerts = List.copyOf(alerts);
        this.elements = elements;
        this.fixed = fixed;
        this.integralState = Collections.unmodifiableMap(integralState);
        this.historicUsage = Collections.unmodifiableMap(historicUsage);
    }

    /** The working elements behind the shares, in tree order (for the package's tests). */
    Element[] workingElements() {
        return elements.clone();
    }

    /** The usage averages behind weights inferred from historic usage, to feed into the next update. */
    public Map<String, Double> historicUsage() {
        return historicUsage;
    }

    public List<Alert> alerts() {
        return alerts;
    }

    /** Every element by id, in tree order; read-only. */
    public Map<String, ElementShares> elements() {
        return view;
    }

    public Map<String, IntegralState> integralState() {
        return integralState;
    }

    public ElementShares element(String id) {
        Integer at = indexOf(id);
        if (at == null) {
            throw new IllegalArgumentException("no element '" + id + "' in the result");
        }
        return shares(at);
    }

    public ElementShares root() {
        return element(PoolTreeConfig.ROOT);
    }

    private ElementShares shares(int at) {
        ElementShares precomputed = fixed[at];
        return precomputed != null ? precomputed : ResultBuilder.shares(elements[at]);
    }

    private synchronized Integer indexOf(Object id) {
        if (index == null) {
            Map<String, Integer> built = new HashMap<>(elements.length * 4 / 3 + 1);
            for (int i = 0; i < elements.length; i++) {
                built.put(elements[i].id, i);
            }
            index = built;
        }
        return index.get(id);
    }

    /** A read-only map over the elements that makes their shares on access. */
    private final class ElementsView extends AbstractMap<String, ElementShares> {

        @Override
        public int size() {
            return elements.length;
        }

        @Override
        public boolean containsKey(Object key) {
            return indexOf(key) != null;
        }

        @Override
        public ElementShares get(Object key) {
            Integer at = indexOf(key);
            return at == null ? null : shares(at);
        }

        @Override
        public Set<Entry<String, ElementShares>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public int size() {
                    return elements.length;
                }

                @Override
                public Iterator<Entry<String, ElementShares>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < elements.length;
                        }

                        @Override
                        public Entry<String, ElementShares> next() {
                            if (next >= elements.length) {
                                throw new NoSuchElementException();
                            }
                            int at = next++;
                            return new SimpleImmutableEntry<>(elements[at].id, shares(at));
                        }
                    };
                }
            };
        }
    }
}
