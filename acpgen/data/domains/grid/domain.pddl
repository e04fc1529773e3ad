; grid: a one-armed robot on a grid of places moves keys around; locked places open
; only with a key of the lock's shape, held while standing next to the lock.
(define (domain grid)
    (:requirements :strips :typing)
    (:types key place shape - object)
    (:predicates (arm-empty) (at ?r - key ?x - place) (at-robot ?x - place) (conn ?x - place ?y - place)
                 (holding ?k - key) (key-shape ?k - key ?s - shape) (lock-shape ?x - place ?s - shape)
                 (locked ?x - place) (open ?x - place))
    (:action move
        :parameters (?curpos - place ?nextpos - place)
        :precondition (and (at-robot ?curpos) (conn ?curpos ?nextpos) (open ?nextpos))
        :effect (and (at-robot ?nextpos) (not (at-robot ?curpos))))
    (:action pickup
        :parameters (?curpos - place ?key - key)
        :precondition (and (at-robot ?curpos) (at ?key ?curpos) (arm-empty))
        :effect (and (holding ?key) (not (at ?key ?curpos)) (not (arm-empty))))
    ; swap the held key for one lying at the robot's place
    (:action pickup-and-loose
        :parameters (?curpos - place ?newkey - key ?oldkey - key)
        :precondition (and (at-robot ?curpos) (holding ?oldkey) (at ?newkey ?curpos))
        :effect (and (holding ?newkey) (at ?oldkey ?curpos) (not (holding ?oldkey)) (not (at ?newkey ?curpos))))
    (:action putdown
        :parameters (?curpos - place ?key - key)
        :precondition (and (at-robot ?curpos) (holding ?key))
        :effect (and (arm-empty) (at ?key ?curpos) (not (holding ?key))))
    (:action unlock
        :parameters (?curpos - place ?lockpos - place ?key - key ?shape - shape)
        :precondition (and (conn ?curpos ?lockpos) (key-shape ?key ?shape) (lock-shape ?lockpos ?shape)
                           (at-robot ?curpos) (locked ?lockpos) (holding ?key))
        :effect (and (open ?lockpos) (not (locked ?lockpos))))
)
